/**
 * Saves a file the API answered (an export, the import template) under the name its
 * Content-Disposition gives, or `fallback`: the page asks with its token, so a plain link
 * to the endpoint would not do.
 */
export async function saveDownload(res: Response, fallback: string): Promise<void> {
  const name = /filename="([^"]+)"/.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? fallback;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  // After the click has handed the file to the browser's download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
