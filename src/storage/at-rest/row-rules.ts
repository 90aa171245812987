import { FIELDS, fieldsWhere } from '../../core/contract/fields.ts'

/**
 * Which fields of each table stay readable under encryption at rest. Everything not listed as
 * plain is sealed, so a field added later is encrypted unless someone decides otherwise here
 * (for a memory, in its row of `core/contract/fields.ts`, from which its rule is derived).
 *
 * Plain: primary keys, the indexed fields queries need (`namespace`, `type`, `pageId`, `model`,
 * `at`) and lifecycle numbers (dates, counts, confidence, tier), which say when and how often,
 * not what. Hashed: indexed fields that do reveal content, replaced by keyed tokens
 * (`cipher.ts` `tokenOf`) that still match by equality; their real values travel sealed.
 * Tables not named here (`changes`, `meta`, `relations`: ids, seqs, kinds) are stored as is.
 */
export interface TableRule {
  readonly plain: ReadonlySet<string>
  /** Field → whether it holds one value or a list (a multi-entry index) to hash entry by entry. */
  readonly hashed: Readonly<Record<string, 'one' | 'each'>>
}

/** The property holding a row's sealed fields. */
export const SEALED_FIELD = 'sealed'

const rule = (plain: string[], hashed: TableRule['hashed'] = {}): TableRule => ({
  plain: new Set(plain),
  hashed,
})

/** The hashed fields of a memory, as `core/contract/fields.ts` marks them (`key`, `tags`). */
function memoryHashes(): TableRule['hashed'] {
  const hashed: Record<string, 'one' | 'each'> = {}
  for (const field of fieldsWhere((row) => row.atRest.startsWith('hashed'))) {
    hashed[field] = FIELDS[field].atRest === 'hashed-each' ? 'each' : 'one'
  }
  return hashed
}

export const AT_REST_RULES: Readonly<Record<string, TableRule>> = {
  memories: rule(
    fieldsWhere((row) => row.atRest === 'plain'),
    memoryHashes(),
  ),
  // An embedding leaks meaning: nearest neighbours of a known text find its paraphrases.
  vectors: rule(['id', 'model', 'dims']),
  snapshots: rule(['name', 'version', 'seq', 'optionsHash', 'model', 'count', 'createdAt']),
  recalls: rule(['id', 'at']),
}
