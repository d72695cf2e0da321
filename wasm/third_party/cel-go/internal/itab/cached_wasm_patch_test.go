//go:build wasm

package itab

const cached = true
