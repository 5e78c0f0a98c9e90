// No Encore declarations: a plain module, not a service.
export function shout(text: string): string {
  return text.toUpperCase();
}
