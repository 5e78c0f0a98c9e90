import type { Plugin } from "esbuild";

export declare function packageNameOf(specifier: string): string;
export declare function packageDirFrom(dir: string, name: string): string | undefined;
export declare function versionAt(packageDir: string): string;
export declare function runtimePackagesHere(): Promise<Plugin>;
export declare function runtimePackagesForDeploy(appRoot: string): { plugin: Plugin; aliases: ReadonlyMap<string, string> };
export declare function runtimePackagesLayout(): string;
