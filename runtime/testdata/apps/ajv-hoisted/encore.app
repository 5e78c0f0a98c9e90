{
  "id": "",
  "lang": "typescript"
}
