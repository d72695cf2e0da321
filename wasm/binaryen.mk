# Binaryen's wasm-opt, shared by the top-level Makefile (the expression module
# celwasm) and wasm/proxywasm (the filter): those modules are linked by Go, then
# shrunk with -Oz (RATIONALE.md, "Modules through wasm-opt"). Binaryen 132 from
# npm (wasm/binaryen/package-lock.json pins it; it runs on Node, which the SDK
# needs anyway): Debian's binaryen 108 left the expression module at 20.6 MB,
# 132 takes it to 19.9 MB. Only the features the Go toolchain's output and every
# host (wazero, wasmtime, V8) have are enabled: with -all the output used value
# types wasmtime refuses.
BINARYEN_DIR     := $(abspath $(dir $(lastword $(MAKEFILE_LIST)))binaryen)
WASM_OPT         := $(BINARYEN_DIR)/node_modules/binaryen/bin/wasm-opt
WASM_OPT_FLAGS   := -Oz --enable-sign-ext --enable-nontrapping-float-to-int --enable-bulk-memory \
	--enable-mutable-globals --strip-debug --strip-producers

$(WASM_OPT): $(BINARYEN_DIR)/package-lock.json
	cd $(BINARYEN_DIR) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@
	@$(WASM_OPT) --version
