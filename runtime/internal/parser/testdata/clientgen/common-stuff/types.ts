export interface ImportedRequest {
  name: string;
}

/** What `imported` answers. */
export interface ImportedResponse {
  message: string;
}
