export declare const packageName: string;
export declare function runtimeDir(): string;
