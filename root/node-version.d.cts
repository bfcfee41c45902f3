// Types of node-version.cjs, which stays plain JavaScript so an old Node can run it.
export declare const MIN_NODE_MAJOR: number;
export declare function unsupportedNodeMessage(version?: string): string | null;
export declare function exitOnUnsupportedNode(): void;
