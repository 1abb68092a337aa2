/** The `{type, info}` a program parser produces (agave's `ParsedInstructionEnum`). */
export interface ParsedInstructionBody {
  readonly type: string;
  readonly info: Readonly<Record<string, unknown>>;
}

/** An instruction as a message holds it: indexes into the transaction's account keys. */
export interface CompiledInstruction {
  readonly programIdIndex: number;
  readonly accounts: readonly number[];
  readonly data: Uint8Array;
  /** Invocation depth of an inner instruction; top-level instructions have none (null in the RPC). */
  readonly stackHeight?: number | null;
}

/** agave's `ParsedInstruction`. */
export interface UiParsedInstruction {
  readonly program: string;
  readonly programId: string;
  readonly parsed: unknown;
  readonly stackHeight: number | null;
}

/** agave's `UiPartiallyDecodedInstruction`: a program without a parser, accounts resolved, data base58. */
export interface UiPartiallyDecodedInstruction {
  readonly programId: string;
  readonly accounts: readonly string[];
  readonly data: string;
  readonly stackHeight: number | null;
}

export type UiInstruction = UiParsedInstruction | UiPartiallyDecodedInstruction;
