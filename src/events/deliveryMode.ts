/**
 * Which delivery mode a subscription uses (design: Delivery Mode Selection): the modes the event
 * type offers, less those this client cannot or may not use, in the caller's order of preference
 * and then webhook, push, poll. Pure.
 */
import { DELIVERY_MODES, type DeliveryMode } from '../wire/events.js';
import { NoCompatibleDeliveryModeError } from './errors.js';

/** How the caller steers the choice. */
export interface DeliveryChoice {
  /** Use this mode or fail. */
  delivery?: DeliveryMode | undefined;
  /** Modes to try first, in order. */
  prefer?: readonly DeliveryMode[] | undefined;
  /** Modes never to use. */
  forbid?: readonly DeliveryMode[] | undefined;
}

/**
 * The mode to use for `name`, offered `offered`.
 * @throws NoCompatibleDeliveryModeError (-33081) when none is usable.
 */
export function pickDeliveryMode(
  name: string,
  offered: readonly DeliveryMode[],
  choice: DeliveryChoice,
  webhookConfigured: boolean,
): DeliveryMode {
  const usable = DELIVERY_MODES.filter(
    (mode) =>
      !(choice.forbid ?? []).includes(mode) &&
      (mode !== 'webhook' || webhookConfigured) &&
      (choice.delivery === undefined || choice.delivery === mode),
  );
  const order = [...(choice.prefer ?? []), ...DELIVERY_MODES];
  const picked = order.find((mode) => usable.includes(mode) && offered.includes(mode));
  if (picked === undefined) throw new NoCompatibleDeliveryModeError(name, [...offered], usable);
  return picked;
}
