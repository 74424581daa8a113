// Contract types for resources, prompts, completion and elicitation (issue: resources). Owned by that work.
import { z } from 'zod';

/** A resource row. */
export interface ResourceItem {
  /** Resource URI. */
  uri: string;
  /** Name (sanitized). */
  name: string;
  /** Title, when given. */
  title?: string;
  /** Description (sanitized). */
  description?: string;
  /** MIME type, when given. */
  mimeType?: string;
  /** Size in bytes, when given. */
  size?: number;
}

/** A resource template row. */
export interface ResourceTemplateItem {
  /** RFC 6570 template. */
  uriTemplate: string;
  /** Name (sanitized). */
  name: string;
  /** Title, when given. */
  title?: string;
  /** Description (sanitized). */
  description?: string;
  /** MIME type, when given. */
  mimeType?: string;
  /** Variable names in the template. */
  variables: string[];
}

/** How a read part is shown: text views are never rendered as markup; HTML and SVG are shown as source. */
export type ResourcePartKind = 'text' | 'json' | 'markdown' | 'html' | 'svg' | 'image' | 'blob';

/** One part of a read resource, bounded for display. */
export interface ResourcePart {
  /** URI of this part (shown, never fetched). */
  uri: string;
  /** How to show it. */
  kind: ResourcePartKind;
  /** MIME type. */
  mimeType?: string;
  /** Text content (never rendered as markup); for `json` it is pretty-printed. */
  text?: string;
  /** Blob size in bytes. */
  blobBytes?: number;
  /** Base64 blob for saving to a file (blobs only, within the read budget). */
  blobData?: string;
  /** Base64 image, only for images that passed the magic-byte, byte and pixel checks. */
  imageData?: string;
  /** Image MIME type detected from its magic bytes. */
  imageMime?: string;
  /** Pixel size of a checked image. */
  imageSize?: { width: number; height: number };
  /** Why an image or blob is not shown. */
  notice?: string;
}

/** Result of reading a resource. */
export interface ResourceReadResult {
  /** The URI that was read (the expanded one for a template). */
  uri: string;
  /** Its parts. */
  parts: ResourcePart[];
}

/** A prompt row. */
export interface PromptItem {
  /** Prompt name. */
  name: string;
  /** Title, when given. */
  title?: string;
  /** Description (sanitized). */
  description?: string;
  /** Arguments. */
  arguments: { name: string; description?: string; required: boolean }[];
}

/** One rendered prompt message. */
export interface PromptMessageView {
  /** Who speaks. */
  role: 'user' | 'assistant';
  /** Text, when the content is text. */
  text?: string;
  /** Image, when the content is an image that passed the checks. */
  image?: { mimeType: string; data: string };
  /** Embedded resource (text shown as text) or resource link (shown, never fetched). */
  resource?: { uri: string; mimeType?: string; text?: string; link?: boolean };
  /** Notice for unsupported content. */
  notice?: string;
}

/** A pending elicitation request shown in the dialog. */
export interface ElicitationRequestView {
  /** Request id (ours). */
  requestId: string;
  /** Requesting server id. */
  serverId: string;
  /** Requesting server's display name. */
  serverName: string;
  /** Form or URL mode. */
  mode: 'form' | 'url';
  /** The server's message (untrusted, sanitized). */
  message: string;
  /** Requested JSON Schema (form mode). */
  requestedSchema?: Record<string, unknown>;
  /** URL to open (URL mode): checked by the URL policy and normalized; exactly this is opened on accept. */
  url?: string;
  /** The URL for display: its host decoded from punycode, the rest as in `url`. */
  urlDisplay?: string;
  /** Host of the URL as displayed (decoded), for highlighting. */
  urlHost?: string;
  /** Warnings about the URL: internationalized host, plain http to this machine. */
  urlWarnings?: string[];
  /** When the request times out (ms since epoch). */
  expiresAt: number;
  /** Notices about what was cut for display (a form nested deeper than 64 levels). */
  notices?: string[];
  /** "ask": the person has not yet said whether this server may ask questions; the dialog asks first. */
  consent?: 'ask' | 'allow';
}

/** Resource, prompt, completion and elicitation methods: name → (argument object) → result. */
export interface ResourcesInvokeMap {
  /** A page of a server's resources. */
  'resources.list': (args: { id: string; cursor?: string }) => Promise<{ resources: ResourceItem[]; nextCursor?: string }>;
  /** A server's resource templates. */
  'resources.templates': (args: { id: string }) => Promise<{ templates: ResourceTemplateItem[] }>;
  /** Reads one resource (or a template expanded with its variables), bounded. */
  'resources.read': (
    args: { id: string; uri: string } | { id: string; uriTemplate: string; variables: Record<string, string> },
  ) => Promise<ResourceReadResult>;
  /** Subscribes to updates of one resource. */
  'resources.subscribe': (args: { id: string; uri: string }) => Promise<void>;
  /** Unsubscribes from one resource. */
  'resources.unsubscribe': (args: { id: string; uri: string }) => Promise<void>;
  /** A server's prompts. */
  'prompts.list': (args: { id: string }) => Promise<{ prompts: PromptItem[] }>;
  /** Renders a prompt with arguments. */
  'prompts.get': (args: {
    id: string;
    name: string;
    arguments: Record<string, string>;
  }) => Promise<{ description?: string; messages: PromptMessageView[] }>;
  /** Completion suggestions for a prompt or template argument. */
  'completion.complete': (args: {
    id: string;
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
    argument: { name: string; value: string };
    context?: Record<string, string>;
  }) => Promise<{ values: string[]; hasMore: boolean }>;
  /** Pending elicitation requests (for a renderer that attaches late). */
  'elicitation.pending': (args: Record<string, never>) => Promise<ElicitationRequestView[]>;
  /** Answers an elicitation request. */
  'elicitation.respond': (args: {
    requestId: string;
    action: 'accept' | 'decline' | 'cancel';
    content?: Record<string, unknown>;
  }) => Promise<void>;
}

// Argument validators, one per method above: run before any handler, their shapes checked against the method
// types in contract-schemas.ts.
const id = z.string().min(1).max(200);
const uri = z.string().min(1).max(8192);

/** Validators for resources.*, prompts.*, completion.* and elicitation.* arguments. */
export const resourceArgSchemas = {
  'resources.list': z.object({ id, cursor: z.string().max(65536).optional() }).strict(),
  'resources.templates': z.object({ id }).strict(),
  'resources.read': z.union([
    z.object({ id, uri }).strict(),
    z.object({ id, uriTemplate: uri, variables: z.record(z.string(), z.string().max(8192)) }).strict(),
  ]),
  'resources.subscribe': z.object({ id, uri }).strict(),
  'resources.unsubscribe': z.object({ id, uri }).strict(),
  'prompts.list': z.object({ id }).strict(),
  'prompts.get': z.object({ id, name: z.string().min(1).max(512), arguments: z.record(z.string(), z.string()) }).strict(),
  'completion.complete': z
    .object({
      id,
      ref: z.discriminatedUnion('type', [
        z.object({ type: z.literal('ref/prompt'), name: z.string().min(1).max(512) }).strict(),
        z.object({ type: z.literal('ref/resource'), uri }).strict(),
      ]),
      argument: z.object({ name: z.string().min(1).max(512), value: z.string().max(8192) }).strict(),
      context: z.record(z.string(), z.string()).optional(),
    })
    .strict(),
  'elicitation.pending': z.object({}).strict(),
  'elicitation.respond': z
    .object({
      requestId: z.string().min(1).max(100),
      action: z.enum(['accept', 'decline', 'cancel']),
      content: z.record(z.string(), z.unknown()).optional(),
    })
    .strict(),
} as const;
