export declare const appRoot: string;
export declare function aliasTarget(specifier: string, importer?: string): string | null;
