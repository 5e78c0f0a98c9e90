{
	// The shape of Encore's own end-to-end TypeScript app (encoredev/encore, e2e-tests/testdata/tsapp).
	"id":   "",
	"lang": "typescript",
}
