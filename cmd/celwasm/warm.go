package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	celwasm "github.com/celwasm/celwasm/host"
	"github.com/celwasm/celwasm/host/module"
	"github.com/celwasm/celwasm/host/wasmtime"
)

// A first run compiles in the background (RATIONALE.md, "The CLI's first
// run: the interpreter now, compiled code for the next"): with no compiled
// code cached for the expression module, the command runs on wazero's
// interpreter (about 1.5 s to a first result, against 5-6 s of compiling)
// while a detached `celwasm warm --background` compiles the module into the
// cache that the next run loads. celwasm-full and celwasm-admission still
// compile in the foreground: their commands (validate, cost, admit) run
// longer on the interpreter than compiling takes.

// embeddedModules are the modules `celwasm warm` compiles, by name.
var embeddedModules = []*module.Module{module.Expr, module.Full, module.Admission}

// engineFactory is the factory of compiled code an --engine names, and
// whether that engine's cache holds a module's code.
func engineFactory(engine string) (celwasm.EngineFactory, func(cacheDir, sha string) bool) {
	if engine == "wazero" {
		// wazero does not say whether its cache has the code; a module's
		// cache directory holds nothing else.
		return celwasm.NewWazeroEngine, func(dir, _ string) bool {
			entries, err := os.ReadDir(dir)
			return err == nil && len(entries) > 0
		}
	}
	// A CLI process runs a few evaluations: a first run compiles about a
	// second faster, for evaluations 5–9% slower.
	return wasmtime.NewQuickCompileEngine, func(dir, sha string) bool {
		_, err := os.Stat(wasmtime.CachePath(dir, sha, true))
		return err == nil
	}
}

// firstRunEngine loads compiled code from the cache when it is there;
// otherwise, for the expression module, it starts `celwasm warm
// --background` and answers on wazero's interpreter, printing one line that
// says so. Other modules, and runs without a cache directory, compile in the
// foreground (the engine prints compileLine).
func firstRunEngine(engine string, stderr io.Writer) celwasm.EngineFactory {
	compiled, cached := engineFactory(engine)
	return func(ctx context.Context, src celwasm.EngineModule, cfg celwasm.EngineConfig) (celwasm.Engine, error) {
		if cfg.CacheDir == "" || src.SHA256 != module.Expr.SHA256() || cached(cfg.CacheDir, src.SHA256) {
			return compiled(ctx, src, cfg)
		}
		if err := startBackground(engine, module.Expr.Name); err != nil {
			return compiled(ctx, src, cfg)
		}
		fmt.Fprintln(stderr, backgroundLine(cfg.CacheDir))
		return celwasm.NewWazeroInterpreterEngine(ctx, src, cfg)
	}
}

// backgroundLine is the progress line of a first run that answers on the
// interpreter while the expression module compiles in the background.
func backgroundLine(cacheDir string) string {
	return "celwasm: compiling the WebAssembly module for this machine, once, in the background (a few seconds; the compiled code is cached in " + cacheDir + "); until then commands run on wazero's interpreter, slower"
}

// startBackground starts the background compile of a module; tests, whose
// executable is not the CLI, replace it.
var startBackground = startWarm

// startWarm starts `celwasm warm --background` for one module, detached: it
// outlives this process and exits when the code is cached.
func startWarm(engine, name string) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe, "warm", "--background", "--engine", engine, "--module", name)
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}

// staleLock is the age after which a compile lock is taken as left behind
// by a process that died (compiling takes seconds, a minute at worst).
const staleLock = 10 * time.Minute

// lockCompile creates path (a lock beside the cached code) unless another
// process holds it; the returned func removes it.
func lockCompile(path string) (func(), bool) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, false
	}
	for try := 0; try < 2; try++ {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid())
			f.Close()
			return func() { os.Remove(path) }, true
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, false
		}
		info, err := os.Stat(path)
		if err != nil || time.Since(info.ModTime()) < staleLock {
			return nil, false
		}
		os.Remove(path)
	}
	return nil, false
}

// cmdWarm compiles modules into the cache: what a first run starts in the
// background, and what an image build can run ahead of time.
func cmdWarm(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("celwasm warm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	engine := fs.String("engine", defaultEngine, engineUsage)
	only := fs.String("module", "", "compile only this module: celwasm, celwasm-full or celwasm-admission (default: all three)")
	background := fs.Bool("background", false, "what a first run starts: print nothing, and do nothing if another process is compiling the module")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 || !checkEngine(stderr, "warm", *engine) {
		return exitUsage
	}
	mods := embeddedModules
	if *only != "" {
		m := embeddedByName(*only)
		if m == nil {
			fmt.Fprintf(stderr, "celwasm warm: --module must be celwasm, celwasm-full or celwasm-admission\n")
			return exitUsage
		}
		mods = []*module.Module{m}
	}
	userCache, err := os.UserCacheDir()
	if err != nil {
		fmt.Fprintf(stderr, "celwasm warm: no cache directory to compile into: %v\n", err)
		return exitError
	}
	base := filepath.Join(userCache, "celwasm", *engine)
	compiled, cached := engineFactory(*engine)
	for _, m := range mods {
		dir := celwasm.ModuleCacheDir(base, m.SHA256())
		if cached(dir, m.SHA256()) {
			if !*background {
				fmt.Fprintf(stdout, "%s: cached in %s\n", m.Name, dir)
			}
			continue
		}
		lock := dir + ".compiling"
		unlock, ok := lockCompile(lock)
		if !ok {
			if !*background {
				fmt.Fprintf(stderr, "celwasm warm: %s: another process is compiling it (%s)\n", m.Name, lock)
				return exitError
			}
			continue
		}
		t0 := time.Now()
		eng, err := compiled(ctx, celwasm.EmbeddedModule(m), celwasm.EngineConfig{CacheDir: dir})
		if err == nil {
			err = eng.Close(ctx)
		}
		unlock()
		if err != nil {
			fmt.Fprintf(stderr, "celwasm warm: %s: %v\n", m.Name, err)
			return exitError
		}
		if !*background {
			fmt.Fprintf(stdout, "%s: compiled in %.1f s, cached in %s\n", m.Name, time.Since(t0).Seconds(), dir)
		}
	}
	return exitOK
}

func embeddedByName(name string) *module.Module {
	for _, m := range embeddedModules {
		if m.Name == name {
			return m
		}
	}
	return nil
}
