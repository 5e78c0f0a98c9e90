export declare function sourcesDigest(appRoot: string, toolDirs: readonly string[], extra?: string): string;
