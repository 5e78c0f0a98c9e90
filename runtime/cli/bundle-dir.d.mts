export declare function buildsDir(appRoot: string): string;
export declare function bundleDir(appRoot: string): string;
