/**
 * A deterministic WordPiece vocabulary and the tokenizer files transformers.js reads for a BERT
 * model (`tokenizer.json`, `tokenizer_config.json`), in the shape the Hugging Face `tokenizers`
 * library saves for bge-small-en-v1.5.
 */

import { COMMON_WORDS } from './words.ts'

export const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const

/** Every ASCII character BERT's pre-tokenizer splits off as punctuation. */
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'.split('')
const LETTERS = 'abcdefghijklmnopqrstuvwxyz'.split('')
const DIGITS = '0123456789'.split('')

const SUFFIXES = [
  's',
  'es',
  'ed',
  'd',
  'ing',
  'er',
  'ers',
  'est',
  'ly',
  'ness',
  'ment',
  'ments',
  'tion',
  'tions',
  'sion',
  'able',
  'ible',
  'al',
  'ial',
  'ful',
  'less',
  'ity',
  'ize',
  'ise',
  'ized',
  'ous',
  'ive',
  'ic',
  'ical',
  'y',
  'en',
  'ies',
  'ist',
  'ism',
  'ship',
  'hood',
  'ward',
  'wise',
  'like',
  'age',
  'ance',
  'ence',
  'ant',
  'ent',
  'ary',
  'ory',
  'ate',
  'ated',
  'ating',
  'ee',
  'ette',
  'let',
]

/**
 * Specials, punctuation, digits, letters, `##` letters and digits, `##` letter pairs, common
 * suffixes, then the common words sorted; `size` pads with `[unused###]` entries.
 */
export function buildVocab(size?: number): string[] {
  const pieces: string[] = [...SPECIAL_TOKENS, ...PUNCTUATION, ...DIGITS, ...LETTERS]
  for (const c of [...DIGITS, ...LETTERS]) pieces.push(`##${c}`)
  for (const a of LETTERS) for (const b of LETTERS) pieces.push(`##${a}${b}`)
  for (const s of SUFFIXES) pieces.push(`##${s}`)
  const words = [...new Set(COMMON_WORDS.split(/\s+/).filter((w) => /^[a-z]{2,}$/.test(w)))].sort()
  const vocab = [...new Set([...pieces, ...words])]
  if (size !== undefined) {
    if (size < vocab.length) throw new Error(`vocab size ${size} < ${vocab.length} real tokens`)
    for (let i = 0; vocab.length < size; i++) vocab.push(`[unused${i}]`)
  }
  return vocab
}

function tokenId(vocab: string[], token: string): number {
  const id = vocab.indexOf(token)
  if (id < 0) throw new Error(`${token} missing from vocab`)
  return id
}

/** The `tokenizer.json` of a lower-casing BERT WordPiece tokenizer over `vocab`. */
export function tokenizerJson(vocab: string[], maxLength: number): object {
  const special = (content: string) => ({
    id: tokenId(vocab, content),
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  })
  const cls = tokenId(vocab, '[CLS]')
  const sep = tokenId(vocab, '[SEP]')
  return {
    version: '1.0',
    truncation: { direction: 'Right', max_length: maxLength, strategy: 'LongestFirst', stride: 0 },
    padding: null,
    added_tokens: SPECIAL_TOKENS.map(special),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [cls], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [sep], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((token, id) => [token, id])),
    },
  }
}

/** The `tokenizer_config.json` that goes with {@link tokenizerJson}. */
export function tokenizerConfigJson(maxLength: number): object {
  return {
    clean_up_tokenization_spaces: true,
    cls_token: '[CLS]',
    do_basic_tokenize: true,
    do_lower_case: true,
    mask_token: '[MASK]',
    model_max_length: maxLength,
    never_split: null,
    pad_token: '[PAD]',
    sep_token: '[SEP]',
    strip_accents: null,
    tokenize_chinese_chars: true,
    tokenizer_class: 'BertTokenizer',
    unk_token: '[UNK]',
  }
}
