export interface UnreadFile {
  readonly file: string;
  /** The symbolic link it lies behind; null when it is another flavour than .ts. */
  readonly link: string | null;
}
export declare function isIgnoredName(name: string): boolean;
export declare function appFiles(root: string, options?: { skip?: readonly string[] }): { parsed: string[]; unread: UnreadFile[] };
