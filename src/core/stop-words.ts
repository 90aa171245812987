/**
 * English stop words: function words only (articles, pronouns, auxiliaries, prepositions,
 * conjunctions, question words, negation), with their inflected forms listed explicitly because
 * the check runs before stemming. Particles that carry meaning in technical notes (`up`, `down`,
 * `off`, `out`: "the API is down"), the month `may` and content verbs are kept.
 *
 * Why not `stopword`'s English list: it drops content verbs such as `like`, `make`, `get` and
 * `take` while keeping `she`, `not` and `will`. Content verbs cannot be stop words here at all,
 * since `likes` would stem to an index term that `like` never produced.
 *
 * Dropping these matters for speed as much as for ranking: an OR query over 100k memories took
 * p50 80 ms with them kept and under 1 ms with them dropped.
 */
const WORDS = `
a an the this that these those each every either neither some any all both such another other
others no nor not none
i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his
himself she her hers herself it its itself they them their theirs themselves
what which who whom whose whatever whoever when where why how
am is are was were be been being have has had having do does did doing
will would shall should can could cannot might must ought
about above across after against along among amongst around at before behind below beneath
beside besides between beyond by during except for from in inside into near of on onto
outside over per since through throughout till to toward towards under underneath until
upon with within without
and or but so yet if then than because as while whether though although unless
also just only very too quite rather really again further once ever even here there
more most much such same else
dont doesnt didnt isnt arent wasnt werent hasnt havent hadnt cant couldnt wouldnt shouldnt
wont mustnt im ive youre youve youll youd theyre theyve weve hes shes thats whats theres
ain ll ve
`

/**
 * The set `processTerm` drops, all lower case.
 *
 * @example
 * STOP_WORDS.has('the')
 * // => true
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(WORDS.split(/\s+/).filter(Boolean))
