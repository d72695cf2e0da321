//go:build unix

package main

import (
	"os/exec"
	"syscall"
)

// detach puts the background compile in its own process group, so that a
// Ctrl-C meant for the command that started it does not stop it.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }
