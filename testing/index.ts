// switchboard/testing: drive Switchboard from Playwright. `test` carries the fixtures (`switchboard`, `page`,
// `context`, `bridge`); the rest is for tests that manage a Switchboard themselves or read results in detail.
export { expect } from '@playwright/test';
export { test } from './fixture.js';
export type { Switchboard, SwitchboardFixtures, SwitchboardOptions } from './fixture.js';
export type { AddServerOptions, AnswerOptions, PersonHelpers, ShownResult } from './person.js';
export type { SwitchboardBridge, BridgeExtras } from './bridge-client.js';
export type { SwitchboardShell } from './shell.js';
export { launchHeadless } from './headless-launch.js';
export type { HeadlessApp, HeadlessLaunchOptions } from './headless-launch.js';
export type { StopReport } from './stop-check.js';
export type { ProcessInfo } from './process-tree.js';
export { requireEnv } from './require-env.js';
export { AppError } from '../shared/errors.js';
export type { ErrorCode } from '../shared/errors.js';
export type { ServerConfigInput } from '../shared/config.js';
export type { BridgeApi, EventMap, InvokeMap, ServerDetail } from '../shared/contract.js';
export type { CallStatus } from '../shared/domains/calls.js';
