export declare function runTypeScript(entry: string, args?: readonly string[]): Promise<void>;
