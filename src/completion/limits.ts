/** The most `values` a result may carry (spec: server/utilities/completion, Completion Results). */
export const MAX_COMPLETION_VALUES = 100;
