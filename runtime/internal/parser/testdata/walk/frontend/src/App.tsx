// Front-end code: walked past, checked for Encore declarations, none found.
export function App(): string {
  return "<p>front end</p>";
}
