package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/celwasm/celwasm/host/module"
	"github.com/celwasm/celwasm/host/wasmtime"
)

var cliBinary struct {
	once sync.Once
	path string
	err  error
	out  []byte
}

// buildCLI builds the celwasm command once per test run.
func buildCLI(t *testing.T) string {
	t.Helper()
	cliBinary.once.Do(func() {
		dir, err := os.MkdirTemp("", "celwasm-cli-")
		if err != nil {
			cliBinary.err = err
			return
		}
		cliBinary.path = filepath.Join(dir, "celwasm")
		cliBinary.out, cliBinary.err = exec.Command("go", "build", "-o", cliBinary.path, ".").CombinedOutput()
	})
	if cliBinary.err != nil {
		t.Fatalf("go build: %v\n%s", cliBinary.err, cliBinary.out)
	}
	return cliBinary.path
}

// runCLI runs the built command with XDG_CACHE_HOME=cache.
func runCLI(t *testing.T, bin, cache string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cache)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code = cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatalf("%s %v: %v", bin, args, err)
	}
	return out.String(), errb.String(), code
}

// TestFirstRunInBackground: with nothing cached, a command answers on
// wazero's interpreter, says so in one line, and leaves a background
// `celwasm warm` that caches the compiled code; the next run loads it,
// prints nothing on stderr, and answers the same bytes.
func TestFirstRunInBackground(t *testing.T) {
	bin := buildCLI(t)
	cache := t.TempDir()
	dir := filepath.Join(cache, "celwasm", "wasmtime", module.Expr.SHA256()[:16])
	code := wasmtime.CachePath(dir, module.Expr.SHA256(), true)
	// Runs before t.TempDir's removal: the background compile may still
	// be writing there when the test fails early.
	t.Cleanup(func() { waitFor(5*time.Minute, func() bool { return !exists(dir + ".compiling") }) })
	const expr = "[1, 2, 3].map(x, x * 2).filter(x, x > 2) + [quantity('1Gi').asInteger()]"

	out, errOut, rc := runCLI(t, bin, cache, "eval", "-e", expr)
	if rc != 0 || errOut != backgroundLine(dir)+"\n" {
		t.Fatalf("first run: exit %d, stderr %q", rc, errOut)
	}
	want := `[{"int":"4"},{"int":"6"},{"int":"1073741824"}]` + "\n"
	if out != want {
		t.Fatalf("first run: %q, want %q", out, want)
	}

	// The background compile finishes by itself: code cached, lock gone.
	if !waitFor(5*time.Minute, func() bool { return exists(code) && !exists(dir+".compiling") }) {
		t.Fatalf("five minutes after the first run: code cached %v, lock held %v", exists(code), exists(dir+".compiling"))
	}

	out2, errOut2, rc := runCLI(t, bin, cache, "eval", "-e", expr)
	if rc != 0 || errOut2 != "" || out2 != out {
		t.Fatalf("next run: exit %d, stdout %q, stderr %q; first run gave %q", rc, out2, errOut2, out)
	}
	v, _, _ := runCLI(t, bin, cache, "version")
	if !strings.HasSuffix(v, "engine wasmtime\n") {
		t.Errorf("version after the background compile:\n%s", v)
	}

	// celwasm warm sees the cached code; an unknown module is usage.
	w, _, rc := runCLI(t, bin, cache, "warm", "--module", "celwasm")
	if rc != 0 || w != "celwasm: cached in "+dir+"\n" {
		t.Errorf("warm: exit %d, %q", rc, w)
	}
	if _, e, rc := runCLI(t, bin, cache, "warm", "--module", "nope"); rc != 2 || !strings.Contains(e, "--module must be") {
		t.Errorf("warm --module nope: exit %d, %q", rc, e)
	}
}

// TestFirstRunWhileCompiling: a run that finds another process compiling
// answers on the interpreter too and starts no second compile (the lock
// stays the other process's).
func TestFirstRunWhileCompiling(t *testing.T) {
	bin := buildCLI(t)
	cache := t.TempDir()
	dir := filepath.Join(cache, "celwasm", "wasmtime", module.Expr.SHA256()[:16])
	lock := dir + ".compiling"
	if err := os.MkdirAll(filepath.Dir(lock), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(lock, []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, rc := runCLI(t, bin, cache, "eval", "-e", "1 + 1")
	if rc != 0 || out != `{"int":"2"}`+"\n" || !strings.Contains(errOut, "wazero's interpreter") {
		t.Fatalf("exit %d, stdout %q, stderr %q", rc, out, errOut)
	}
	// Give a wrongly started compile time to show itself.
	time.Sleep(2 * time.Second)
	if b, err := os.ReadFile(lock); err != nil || string(b) != "1\n" {
		t.Errorf("lock %s: %q, %v; want the other process's", lock, b, err)
	}
	if _, err := os.Stat(wasmtime.CachePath(dir, module.Expr.SHA256(), true)); err == nil {
		t.Errorf("code was compiled although another process held the lock")
	}
	if _, e, rc := runCLI(t, bin, cache, "warm", "--module", "celwasm"); rc != 1 || !strings.Contains(e, "another process is compiling it") {
		t.Errorf("warm while locked: exit %d, %q", rc, e)
	}
}

// TestLockCompile: one holder at a time; a lock older than staleLock is
// taken over; unlocking removes it.
func TestLockCompile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "x.compiling")
	unlock, ok := lockCompile(path)
	if !ok {
		t.Fatal("first lock failed")
	}
	if _, ok := lockCompile(path); ok {
		t.Fatal("second lock succeeded while the first is held")
	}
	unlock()
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("unlock left %s: %v", path, err)
	}
	unlock, _ = lockCompile(path)
	old := time.Now().Add(-staleLock - time.Minute)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	unlock2, ok := lockCompile(path)
	if !ok {
		t.Fatal("a stale lock was not taken over")
	}
	unlock2()
	unlock()
}

// waitFor polls cond until it holds, at most d.
func waitFor(d time.Duration, cond func() bool) bool {
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return false
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
