/** The most retries one call sends by default (`ClientOptions.maxInputRounds`). */
export const DEFAULT_MAX_ROUNDS = 10;
