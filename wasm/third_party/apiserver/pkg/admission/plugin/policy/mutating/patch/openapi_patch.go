package patch

// celwasm patch: this file is not upstream's (PATCHES.md, "mutating/patch").

// openapiClient is k8s.io/client-go/openapi's Client interface, whose package
// links client-go's REST client; typeConverterManager only calls Paths.
type openapiClient interface {
	Paths() (map[string]openapiGroupVersion, error)
}

// openapiGroupVersion is k8s.io/client-go/openapi's GroupVersion interface.
type openapiGroupVersion interface {
	Schema(contentType string) ([]byte, error)
	ServerRelativeURL() string
}
