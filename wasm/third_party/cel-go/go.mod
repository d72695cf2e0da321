module github.com/google/cel-go

go 1.23.0

require (
	cel.dev/expr v0.25.1
	github.com/antlr4-go/antlr/v4 v4.13.1
	github.com/google/go-cmp v0.7.0
	go.yaml.in/yaml/v3 v3.0.4
	google.golang.org/genproto/googleapis/api v0.0.0-20240826202546-f6391c0de4c7
	google.golang.org/protobuf v1.36.10
)

require (
	golang.org/x/exp v0.0.0-20240823005443-9b4947da3948 // indirect
	golang.org/x/text v0.22.0
	google.golang.org/genproto/googleapis/rpc v0.0.0-20240826202546-f6391c0de4c7 // indirect
)
