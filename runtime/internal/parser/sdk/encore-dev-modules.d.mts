export declare const implementedModules: readonly string[];
export declare const publishedModules: readonly string[];
export declare const firstPublishedIn: Readonly<Record<string, string>>;
export declare function isEncoreDevSpecifier(specifier: string): boolean;
export declare function encoreDevRefusal(specifier: string): string | undefined;
