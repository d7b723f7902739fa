export declare const SYSTEM_PACKAGES: ReadonlyArray<{ binary: string; debianPackage: string; usedBy: string }>;
export declare function findBinary(binary: string): string | undefined;
