/**
 * The `input_required` rounds (spec: basic/patterns/mrtr) as one part loaded on first use: the
 * round loop, the host's handlers answering input requests, and the 2025-11-25 URL elicitation
 * rounds. `client/inputRounds.ts` loads it when the first `input_required` result (or -32042)
 * arrives, or a task asks for input: the server decides, so clients whose servers never ask
 * load none of it.
 */
export { driveInputRequired } from './driver.js';
export { answerInputRequest, fulfilInputRequests } from './inputHandlers.js';
export { ElicitationCompletions, retryAfterUrlElicitations } from './urlElicitation.js';
