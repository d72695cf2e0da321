// Package yamlop adds the celwasm_input op "yaml" to the module that
// imports it (the admission module): JSON text → YAML as the Go CLI prints
// patched objects (sigs.k8s.io/yaml's JSONToYAML), so that the Python CLI
// prints them with the same code. The other modules leave out go-yaml's
// emitter.
package yamlop

import (
	"sigs.k8s.io/yaml"

	"github.com/celwasm/celwasm/wasm/input"
)

func init() {
	input.RegisterOp("yaml", func(data []byte) (string, error) {
		b, err := yaml.JSONToYAML(data)
		return string(b), err
	})
}
