{
	// The app is not linked to an Encore Cloud app: "encore app link" sets the id.
	"id":   "",
	"lang": "typescript",
}
