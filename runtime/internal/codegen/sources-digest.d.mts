export declare function sourcesDigest(appRoot: string, toolDirs: readonly string[]): string;
