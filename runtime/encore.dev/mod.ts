// encore.dev: the package root. Request metadata and app metadata arrive with the auth work.
export {};
