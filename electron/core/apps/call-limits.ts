// How many requests one app launch may make of its server: a few at a time and a bounded number in any sliding
// window, tools/call in one budget and resource reads and listings in another, so an app (hostile, or just polling
// fast) cannot flood its server or crowd out the person's own calls. A refused request is a typed `limit_exceeded`
// error naming the limit, which the app receives as the request's error; it is never sent.
import { AppError } from '../../../shared/errors.js';

/** Calls one launch may have in flight at once. */
export const APP_CALLS_IN_FLIGHT = 4;
/** Calls one launch may start within any `APP_CALLS_WINDOW_MS`. */
export const APP_CALLS_PER_WINDOW = 20;
/** The sliding window of the rate limit. */
export const APP_CALLS_WINDOW_MS = 10_000;

/** The limits of one launch (tests use smaller ones). */
export interface AppCallLimits {
  inFlight: number;
  perWindow: number;
  windowMs: number;
}

/** The default limits. */
export const APP_CALL_LIMITS: Readonly<AppCallLimits> = {
  inFlight: APP_CALLS_IN_FLIGHT,
  perWindow: APP_CALLS_PER_WINDOW,
  windowMs: APP_CALLS_WINDOW_MS,
};

/** Resource reads and listings of one launch: as many at a time, twice as many per window (apps load images). */
export const APP_READ_LIMITS: Readonly<AppCallLimits> = {
  inFlight: APP_CALLS_IN_FLIGHT,
  perWindow: 2 * APP_CALLS_PER_WINDOW,
  windowMs: APP_CALLS_WINDOW_MS,
};

/** The budget of one launch for one kind of request: admits one (or refuses it) and is told when it ends. */
export class AppCallBudget {
  readonly #limits: AppCallLimits;
  readonly #now: () => number;
  /** What the budget counts, in the refusal's words ("tool calls", "resource requests"). */
  readonly #what: string;
  /** Start times of the calls admitted within the window, oldest first. */
  readonly #starts: number[] = [];
  #inFlight = 0;

  constructor(limits: AppCallLimits = APP_CALL_LIMITS, now: () => number = Date.now, what = 'tool calls') {
    this.#limits = limits;
    this.#now = now;
    this.#what = what;
  }

  /** Runs `request` within the budget (refused with `limit_exceeded` when over it). */
  async run<T>(serverId: string, request: () => Promise<T>): Promise<T> {
    this.admit(serverId);
    try {
      return await request();
    } finally {
      this.release();
    }
  }

  /** Admits one call, or throws `limit_exceeded` saying which limit it hit. Call `release` when an admitted call ends. */
  admit(serverId: string): void {
    const now = this.#now();
    const { inFlight, perWindow, windowMs } = this.#limits;
    while (this.#starts.length > 0 && now - this.#starts[0]! >= windowMs) this.#starts.shift();
    if (this.#inFlight >= inFlight) {
      throw new AppError(
        'limit_exceeded',
        `The app already has ${inFlight} ${this.#what} running (at most ${inFlight} at a time); this one was not sent`,
        { serverId },
      );
    }
    if (this.#starts.length >= perWindow) {
      const wait = Math.max(1, Math.ceil((windowMs - (now - this.#starts[0]!)) / 1000));
      throw new AppError(
        'limit_exceeded',
        `The app made ${perWindow} ${this.#what} in the last ${windowMs / 1000} s (at most ${perWindow} per ${windowMs / 1000} s); ` +
          `this one was not sent, try again in ${wait} s`,
        { serverId },
      );
    }
    this.#starts.push(now);
    this.#inFlight += 1;
  }

  /** An admitted call ended (answered, failed or refused later on). */
  release(): void {
    if (this.#inFlight > 0) this.#inFlight -= 1;
  }

  /** Calls in flight now. */
  get inFlight(): number {
    return this.#inFlight;
  }
}
