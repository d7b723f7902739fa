import { ErrorCode } from '../errors/codes.js';
import { LocalError } from '../errors/errors.js';

/** `data` of a {@link ClientStateError}. */
export interface ClientStateErrorData {
  /** The method called, e.g. `"connect"`. */
  method: string;
  /** The client's state at the call (a `ClientState`): `connecting`, `open`, `reconnecting` or `closed` for `connect`. */
  state: string;
}

/**
 * A method was called in a client state that does not allow it (code -33040); nothing was sent.
 * `connect()` runs once per `McpClient`: a second call while it is connecting, open or
 * reconnecting, or after `close()`, throws this. The client reconnects by itself after a drop
 * (`ClientOptions.reconnect`); once it is closed, create a new one.
 * `data` is {@link ClientStateErrorData}.
 */
export class ClientStateError extends LocalError {
  override name = 'ClientStateError';
  declare readonly data: ClientStateErrorData;

  constructor(data: ClientStateErrorData, message: string) {
    super(ErrorCode.ClientState, `${data.method}: ${message}`, { data });
  }
}
