export declare const packageName: string;
export declare class NoAppError extends Error {}
export declare function findAppRoot(start: string): string;
export declare const appRoot: string;
export declare function runtimeDir(): string;
