package celwasm_test

import (
	"context"
	"fmt"

	celwasm "github.com/celwasm/celwasm/host"
)

// The README's example.
func Example() {
	ctx := context.Background()
	rt, err := celwasm.New(ctx)
	if err != nil {
		panic(err)
	}
	defer rt.Close(ctx)
	env := rt.NewEnv(celwasm.Variable("self", "map(string, int)"), celwasm.CompatibilityVersion("1.34"))
	prg, err := env.Compile(ctx, "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas")
	if err != nil {
		panic(err)
	}
	fmt.Println(prg.OutputType, prg.CostEstimate.Min, prg.CostEstimate.Max)
	res, err := prg.Eval(ctx, []byte(`{"self":{"minReplicas":1,"replicas":3,"maxReplicas":5}}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(res.JSON), res.Cost)
	_, err = env.Compile(ctx, "self.replicas >")
	fmt.Println(err)
	// Output:
	// bool 5 10
	// true 10
	// ERROR: <input>:1:16: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}
	//  | self.replicas >
	//  | ...............^
}

// The package documentation's example.
func Example_packageDoc() {
	ctx := context.Background()
	rt, err := celwasm.New(ctx)
	if err != nil {
		panic(err)
	}
	defer rt.Close(ctx)
	env := rt.NewEnv(celwasm.Variable("self", "map(string, dyn)"))
	prg, err := env.Compile(ctx, "self.replicas <= self.maxReplicas")
	if err != nil {
		panic(err)
	}
	res, err := prg.Eval(ctx, []byte(`{"self":{"replicas":3,"maxReplicas":5}}`))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(res.JSON), res.Cost)
	// Output: true 5
}
