{
	"id": "",
	"lang": "typescript",
}
