// Not inside any service: plain library code is fine.
export function double(n: number): number {
  return n * 2;
}
