import type { StatementCursor } from '../domain/pix-statement';

/**
 * Where the Pix sweep's reading of each PSP's statement stands (shared/adapters/dynamo/pix-statement-cursor.ts),
 * so each run goes on where the last stopped and every Pix received is checked, whatever the volume.
 */
export interface PixStatementCursors {
  /** The provider's cursor; undefined before its first pass. */
  read(provider: string): Promise<StatementCursor | undefined>;
  /** Moves the provider's cursor from `from` (undefined: none yet) to `to`; false when another run moved it first (nothing written). */
  advance(provider: string, from: StatementCursor | undefined, to: StatementCursor): Promise<boolean>;
}
