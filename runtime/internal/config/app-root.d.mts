export declare const appRoot: string;
export declare const runtimeDir: string;
