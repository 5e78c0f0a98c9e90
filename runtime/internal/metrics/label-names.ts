/** A label name as Encore exports it: "jobType" → "job_type", "HTTPStatus" → "http_status". */
export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[\s-]+/g, "_")
    .toLowerCase();
}

/** Prometheus's rule for label names, less its reserved "__" prefix. */
export function isValidLabelName(name: string): boolean {
  return /^[a-zA-Z_][a-zA-Z0-9_]*$/.test(name) && !name.startsWith("__");
}
