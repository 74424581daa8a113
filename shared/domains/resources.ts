// Contract types for resources, prompts, completion and elicitation (issue: resources). Owned by that work.

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
