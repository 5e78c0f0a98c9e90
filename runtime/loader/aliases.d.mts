export declare const appRoot: string;
export declare function aliasTarget(specifier: string): string | null;
