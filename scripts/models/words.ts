/**
 * Common English words (and some software and everyday-assistant vocabulary) for the generated
 * WordPiece vocabularies. Order does not matter: the vocabulary builder dedupes and sorts.
 */
export const COMMON_WORDS = `
the of and to a in is it you that he was for on are with as his they be at one have this from
or had by hot but some what there we can out other were all your when up use word how said an
each she which do their time if will way about many then them would write like so these her long
make thing see him two has look more day could go come did my sound no most number who over know
water than call first people may down side been now find any new work part take get place made
live where after back little only round man year came show every good me give our under name very
through just form much great think say help low line before turn cause same mean differ move right
boy old too does tell sentence set three want air well also play small end put home read hand port
large spell add even land here must big high such follow act why ask men change went light kind off
need house picture try us again animal point mother world near build self earth father head stand
own page should country found answer school grow study still learn plant cover food sun four thought
let keep eye never last door between city tree cross since hard start might story saw far sea draw
left late run don't while press close night real life few stop open seem together next white children
begin got walk example ease paper often always music those both mark book letter until mile river car
feet care second group carry took rain eat room friend began idea fish mountain north once base hear
horse cut sure watch color face wood main enough plain girl usual young ready above ever red list
though feel talk bird soon body dog family direct pose leave song measure state product black short
numeral class wind question happen complete ship area half rock order fire south problem piece told
knew pass farm top whole king size heard best hour better true during hundred am remember step early
hold west ground interest reach fast five sing listen six table travel less morning ten simple several
vowel toward war lay against pattern slow center love person money serve appear road map science rule
govern pull cold notice voice fall power town fine certain fly unit lead cry dark machine note wait
plan figure star box noun field rest correct able pound done beauty drive stood contain front teach
week final gave green oh quick develop sleep warm free minute strong special mind behind clear tail
produce fact street inch lot nothing course stay wheel full force blue object decide surface deep moon
island foot yet busy test record boat common gold possible plane age dry wonder laugh thousand ago ran
check game shape yes cool miss brought heat snow bed bring sit perhaps fill east weight language among
ability absence academic accept access account accurate achieve acquire across action active activity
actual actually address admit adult advance advantage advice affect afford afraid agency agent agree
agreement ahead allow almost alone along already although amount analysis ancient anger angle angry
announce annual another anxiety anybody anyone anything anyway apart apartment apparent appeal apply
approach approve argue argument arm army around arrange arrive art article artist aside asleep aspect
assess asset assign assist assume attack attempt attend attention attitude attract audience author
authority available average avoid award aware away baby bad bag balance ball band bank bar barely
basic basis battle bear beat beautiful became because become bedroom beer behavior belief believe
belong below benefit beside beyond bill billion bit bite blame blank blind block blood board bomb
bone bonus border born borrow boss bother bottle bottom bowl brain branch brand bread break breakfast
breath brief bright brilliant broad broken brother budget bug building burn bus business buy cabinet
cake calendar campaign cancel cancer candidate cap capable capacity capital captain capture card career
careful case cash cat catch category ceiling cell central century chain chair challenge champion chance
channel chapter character charge cheap cheese chef chemical chest chicken chief child choice choose
church cigarette circle citizen civil claim classic clean client climate climb clinic clock clothes
cloud club coach coast coat code coffee collect college column combine comfort command comment
commercial commit committee communicate community company compare compete complain complex component
computer concept concern concert conclude condition conduct conference confidence confirm conflict
connect consider constant construct consumer contact content context continue contract contrast
control conversation convert cook copy corner cost cotton couch council count counter couple courage
court cousin cream create credit crew crime crisis critical crowd cultural culture cup current customer
cycle dad daily damage dance danger data database date daughter dead deal dear death debate debt
decade decision declare default defense define degree delay delete deliver demand dentist deny depend
deploy deployment depth describe design desk despite detail detect determine device diet difference
different difficult dinner direction director dirty discover discuss disease dish display distance
divide doctor document dollar domain double doubt downtown dozen draft dream dress drink drop drug
due dust duty eager easily easy economic economy edge edit editor education effect effort eight either
elderly election electric element else email emergency emotion employee employer empty enable encourage
enemy energy engine engineer enjoy enormous ensure enter entire environment equal error escape
especially essay establish estimate evening event eventually everybody everyone everything evidence
exact exactly exam examine excellent except exchange excited exercise exist expect expense expensive
experience expert explain explore export express extend extra extremely fail failure fair faith false
famous fan fantastic fault favorite fear feature fee feed feeling fellow female fever fiction fight
file film final finally finance financial finger finish firm fit fix flat flight floor flow flower
focus folder folk following football force foreign forest forget forgive fork formal former forward
frame frequent fresh friday friendly fruit fuel fun function fund funny furniture future gain gallery
gap garage garden gas gate gather general generate generation gentle gift glad glass global goal god
government grade grand grandfather grandmother grant grass gray guard guess guest guide guitar gun guy
habit hair hall handle hang happy harm hat hate health healthy heart heavy height hello hero herself
hide highway hill himself hire history hit hobby holiday hole honest hope hospital host hotel huge
human humor hungry hunt hurry hurt husband ice identify identity ignore ill image imagine impact
import important impossible improve include income increase indeed independent index indicate
individual industry infant inform information initial injury inner input inside install instance
instead institution instruction insurance intend internal international internet interview introduce
invest investigate invite involve iron issue item itself jacket job join joint joke journal journey
judge juice jump junior jury justice key kick kid kill kitchen knee knife label labor lack lady lake
lamp laptop later latest laughter launch law lawyer layer leader league least leather lecture legal
lemon length lesson level library license lie lift likely limit link lip liquid listen literature
load loan local location lock log logic lonely lose loss loud lower luck lunch mail maintain major
majority male manage manager manner margin market marriage married master match material matter
maximum maybe meal meaning meanwhile measure meat media medical medicine medium meet meeting member
memory mention menu mess message metal method middle midnight might military milk million mine
minimum minister minor mirror mission mistake mix mobile model modern moment monday monitor month mood
morning mortgage most mostly motor mouse mouth movie much murder muscle museum mystery nation native
natural nature nearly neat necessary neck negative neighbor neither nervous network nobody noise none
normal nose notebook novel nurse obvious occasion occur ocean odd offer office officer official oil
okay older online onto opening operate opinion opportunity opposite option orange ordinary organize
original otherwise ought ourselves outcome outside oven overall owe owner pack package pain paint pair
palace pan panel parent park parking particular partner party password past patch path patient pay
payment peace pen pencil penalty pension percent perfect perform performance period permission permit
personal phone photo phrase physical piano pick pie pile pilot pin pink pipe pitch pizza plastic plate
platform player pleasant please pleasure plenty pocket poem poet police policy polite political pool
poor popular population position positive post pot potato potential practice prefer pregnant prepare
present president pressure pretty prevent previous price pride priest primary prime prince principle
print prior priority prison private prize probably process produce profession professor profile
profit program progress project promise proof proper property propose protect proud prove provide
public publish purpose purse push quality quarter queen query quiet quit quite quote race radio raise
range rank rare rate rather raw ready reality realize really reason receive recent recently recipe
recognize recommend record recover reduce refer reflect refuse regard region register regular reject
relate relation relationship release relevant relief religion rely remain remind remote remove rent
repair repeat replace reply report represent request require research reserve resident resolve
resource respect respond response responsible restaurant result retire return reveal revenue review
reward rice rich ride ring rise risk rival role roll roof root rope rough route routine row royal rub
ruin rush sad safe safety salad salary sale salt sample sand satisfy saturday sauce save scale scene
schedule scheme score screen script search season seat secret secretary section secure security seek
select sell send senior sense separate sequence series serious server service session settle seven
severe sex shade shadow shake shall share sharp sheet shelf shell shift shine shirt shock shoe shoot
shop shopping shot shoulder shout shower sick sight sign signal silence silly silver similar simply
sing single sink sister site situation skill skin sky slide slip smart smell smile smoke smooth snack
society sock soft software soil soldier solid solution solve somebody somehow someone something
sometimes somewhere son sort soul source space speak speaker speech speed spend spirit split sport
spot spread spring square stable staff stage stair standard station status steal steel stick stock
stomach stone storage store storm strange stranger strategy stream strength stress stretch strike
string structure student stuff style subject submit succeed success successful sudden suffer sugar
suggest suit summer sunday supply support suppose surprise survey suspect sweet swim switch symbol
system tale target task taste tax tea teacher team tear technical technology teeth telephone
television temperature temporary tend tennis term terrible text thank theme therefore thick thin
thursday ticket tie tight till tiny tip tired title today toe tomorrow tone tonight tool tooth topic
total touch tough tour towel tower toy track trade tradition traffic train training transfer
transport trash treat treatment trial trick trip trouble truck trust truth tuesday tune twice type
typical ugly uncle understand union unique university unless unlike update upon upper upset urban
usually vacation valley valuable value variety various vehicle version victim video view village
visit visual vote wage wake wall wallet warn wash waste wave weak wealth weapon wear weather wedding
wednesday weekend welcome western whatever wheel whenever wherever whether whom whose wide wife wild
willing win window wine wing winner winter wire wise wish within without woman wonderful worker
worry worth wrap writer writing wrong yard yellow yesterday yourself youth zone api app backend bash
branch browser cache chrome cli cloud commit config container cpu css csv debug dependency docker
extension frontend git github gpu html http https json kubernetes lambda linux login merge node npm
python react repo repository rust sql token typescript url user username vector worker yaml
allergic allergy anniversary appointment aunt birthday brother-in-law cousin daughter-in-law
dentist doctor fiance girlfriend boyfriend grandson granddaughter nephew niece partner pet puppy
kitten sister-in-law son-in-law vegetarian vegan peanut gluten dairy coffee tea meeting reminder
deadline invoice flight hotel passport visa trip airport train ticket budget rent salary
`
