extension BundledCatalog {
    /// The bundled cat facts, written by the CatFacts team.
    public static let facts: [Fact] = factTable.split(separator: "\n").map { Fact(String($0)) }

    /// One fact a line (as text, for the reason the breeds are: data, not code).
    private static let factTable = """
        Cats sleep for around 12 to 16 hours a day.
        Adult cats have 30 teeth, while kittens have 26 baby teeth.
        Most cats have five toes on each front paw and four on each back paw.
        A cat's whiskers are known scientifically as vibrissae.
        An unneutered male cat is called a tom; a female is called a queen.
        A healthy cat’s body temperature sits around 38–39 °C.
        Cats walk on their toes, which makes them digitigrade.
        The domestic cat's scientific name is Felis catus.
        Kittens are born with their eyes sealed shut.
        Cats have a third eyelid, called the nictitating membrane.
        Pregnancy in cats lasts about nine weeks.
        Many adult cats cannot digest lactose well.
        A cat's tail helps it keep its balance on narrow ledges.
        Calico and tortoiseshell cats are nearly always female.
        Roughly four out of five orange tabby cats are male.
        Cats sweat mainly through the pads of their paws.
        A cat's collarbone floats freely instead of joining other bones.
        Ancient Egyptians linked cats with the goddess Bastet.
        Cats can leap several times their own body height.
        Kneading is a habit kittens develop while nursing.
        Cats are most active around dawn and dusk.
        The chemical in catnip that excites cats is nepetalactone.
        The Sphynx is not truly bald; it has a fine peach-fuzz coat.
        Cats mark territory with scent glands on their cheeks.
        Cats hear higher-pitched sounds than dogs or people can.
        A cat can’t focus well on things right under its nose.
        Polydactyl cats are born with extra toes.
        A cat's purr usually falls between 25 and 150 hertz.
        Most cats dislike getting wet, but Turkish Vans often enjoy water.
        Each of a cat's ears is moved by about 32 muscles.
        A cat rubbing against you is leaving its scent on you.
        Kittens usually start to walk at around three weeks old.
        A cat’s field of view spans roughly 200°.
        Cats have far fewer taste buds than people do.
        Cats spend a large part of their waking time grooming.
        Hissing is a defensive warning, not an attack.
        Cats use their whiskers to judge whether they fit through a gap.
        A cat under a year old is usually still called a kitten.
        Cats cannot see in total darkness, but they need far less light than we do.
        The Maine Coon is one of the largest domestic cat breeds.
        A cat's tail held straight up usually signals a friendly greeting.
        The Abyssinian has a ticked coat, with bands of colour on each hair.
        A cat's pupils widen when it is excited, frightened or playful.
        Cats can have harmless dark freckles, called lentigo, on their lips and nose.
        A cat's rough tongue is covered in tiny backward-pointing spines called papillae, which act like a comb.
        Cats have whiskers on their muzzle and also on the backs of their front legs, called carpal whiskers.
        White cats with two blue eyes are especially likely to be born deaf, because the same gene affects coat and inner ear.
        A cat's righting reflex lets it twist in midair to land on its feet; kittens develop it within their first two months.
        Adult cats seldom meow at one another; the meow is largely a way of talking to people.
        Slowly blinking at a cat can be read as a friendly signal, and cats often slow-blink back.
        Domestic cats descend from the African wildcat, Felis lybica, which lives across North Africa and the Near East.
        Ernest Hemingway kept a polydactyl cat, and many of its six-toed descendants still live at his former home in Key West.
        Kittens' eyes usually look blue when they first open; their adult eye colour develops over the following weeks.
        Newborn kittens cannot hear well; their ear canals open during the first two weeks of life.
        The ridges on a cat's nose leather form a pattern thought to be unique to each cat, much like a fingerprint.
        Cats have a scent organ in the roof of the mouth, the vomeronasal organ, which they use when making the open-mouthed flehmen face.
        Cats pant far less than dogs; a panting cat may be overheated or stressed and should be watched closely.
        A cat's claws grow in layers, and scratching helps pull off the worn outer sheaths.
        Scratching posts give cats a place to stretch, sharpen claws and leave both visual and scent marks.
        Cats have a wider hearing range than dogs, picking up sounds well above 60 kHz at the high end.
        The Egyptian Mau is one of the few domestic breeds with a naturally spotted coat.
        Siamese cats owe their dark points to a heat-sensitive enzyme, so the cooler parts of the body grow darker fur.
        Cats see blues and greens but have trouble telling reds from greens, much like a red-green colour-blind person.
        Cats need the amino acid taurine in their food; without it they can develop heart disease and blindness.
        Lilies and daylilies are highly toxic to cats; even a little pollen licked from the fur can cause kidney failure.
        Chocolate, onions and garlic are all toxic to cats and should be kept out of their reach.
        Cats' pupils can narrow to thin vertical slits, which helps control bright light and judge distance.
        Most cats favour one paw over the other, and studies suggest females more often prefer the right paw.
        The Scottish Fold's folded ears come from a cartilage gene that can also cause painful joint problems.
        A cat's whiskers are deeply rooted and packed with nerves, so they sense even slight changes in air movement.
        Purring is not only a sign of contentment; cats may also purr when they are stressed, in pain or giving birth.
        Kittens learn many hunting skills by watching their mother, who may bring them live prey to practise on.
        Cats often sleep in short bouts, which is where the word “catnap” comes from.
        Female cats can become pregnant as young as four months old, so early neutering prevents surprise litters.
        A single litter can include kittens fathered by different toms, a condition called superfecundation.
        The average litter holds about four kittens, though litters of one to eight or more occur.
        Cats have a keen sense of smell, with many times more scent receptors in their nose than humans have.
        Abraham Lincoln kept cats in the White House, including two kittens given to him by Secretary of State William Seward.
        Isaac Newton is often credited with inventing the cat flap, but there is no solid evidence for the story.
        Cats were kept on ships for centuries to control the rats and mice that spoiled food stores and chewed ropes.
        Felicette, a French cat, went to space in 1963 and returned safely after a short suborbital flight.
        Cats can barely move their jaws sideways, so they slice food with their teeth rather than grinding it.
        A cat’s whiskers fall out and regrow naturally, so a loose whisker on the floor is usually nothing to worry about.
        Cats often greet familiar cats by touching noses and then sniffing each other's faces.
        A cat's flexible spine lets it stretch and bunch up as it runs, adding length to each stride.
        Domestic cats can sprint at roughly 30 miles (48 km) per hour over short distances.
        Because they descend from desert-dwelling wildcats, cats tend to drink little and get much of their water from food.
        Cats are among the most popular pets in the world, with hundreds of millions kept in homes.
        Grooming each other, called allogrooming, helps cats who live together strengthen their social bonds.
        The tiny spines on a cat's tongue are hollow at the tip and carry saliva deep into the fur during grooming.
        Most cats have 24 movable whiskers on the muzzle, arranged in four rows on each side.
        Cats often chirp or chatter at birds seen through a window, a sound thought to reflect excitement or frustration.
        Cats can get sunburned, especially on pale ears and noses, and white cats are at greater risk of skin cancer.
        Urine spraying is most common in unneutered males, and neutering greatly reduces it.
        Cats bury their waste by instinct, which may help hide their presence from rivals and predators.
        Cats thrive on routine and can become stressed by changes to their home or daily schedule.
        Many cats love boxes and small spaces, which seem to help them feel safe and reduce stress.
        Cats lean heavily on their whiskers at close range, sweeping them forward when grabbing prey they cannot see clearly.
        Indoor cats typically live longer than outdoor cats, since they avoid traffic, fights and many diseases.
        Many pet cats live 12 to 18 years, and some reach their twenties.
        Creme Puff, a cat from Texas, lived to 38 years and 3 days, the oldest cat on record.
        Tabby coats come in four main types: mackerel, classic, ticked and spotted.
        Most tabby cats have an M-shaped marking on the forehead.
        Kittens begin eating solid food at around four weeks old, while still nursing from their mother.
        Towser, a tortoiseshell cat at the Glenturret Distillery in Scotland, is credited with catching about 28,899 mice.
        A cat named Stubbs served as the honorary mayor of Talkeetna, Alaska, for about 20 years.
        Larry, a tabby, has held the title of Chief Mouser to the Cabinet Office at 10 Downing Street since 2011.
        Many cats seem to prefer drinking from running water, which is why pet water fountains are popular.
        Cats can recognise their own name, and research shows they can tell it apart from similar-sounding words.
        Cats can recognise their owner's voice and react more strongly to it than to a stranger's.
        Cats have a loose flap of skin on the belly, the primordial pouch, which may help protect the abdomen in fights.
        Cats almost always land on their feet thanks to the righting reflex: the head turns first, the spine follows, and the legs are tucked and then extended before touchdown. Even so, falls can still cause serious injuries.
        The orange coat colour gene is carried on the X chromosome. A female, with two X chromosomes, can carry both orange and black and so show a tortoiseshell or calico coat, while a male usually cannot unless he has an extra X.
        Cats use their whiskers as touch sensors. Each whisker sits in a follicle rich in nerves and blood vessels, so the slightest touch or air current sends information to the brain about nearby objects.
        Most researchers think a purr comes from the muscles of the larynx twitching rapidly, making the vocal folds vibrate as the cat breathes both in and out.
        Archaeologists found a person buried alongside a cat on Cyprus about 9,500 years ago. Because cats are not native to the island, people must have brought them across the sea by boat.
        Cats became valued in early farming villages because stored grain attracted mice. Wildcats that tolerated people found easy prey, and over many generations they became the domestic cat.
        In ancient Egypt cats were so respected that many were mummified after death. Archaeologists have uncovered cemeteries holding enormous numbers of cat mummies, such as the one at Beni Hasan.
        A cat’s eyes have a reflective layer called the tapetum lucidum. It bounces light back through the retina a second time, which improves night vision and causes the eyeshine seen in photos.
        Cats have a much higher proportion of rod cells in their retinas than humans, which lets them see in about one-sixth of the light we need, but their colour vision and sharpness are weaker.
        The Scottish Fold breed traces back to a single white farm cat named Susie, found in Scotland in 1961. Every fold-eared Scottish Fold carries the same dominant gene that bends the ears forward.
        The Devon Rex and Cornish Rex both have curly coats, but their curls come from two different genetic mutations found in neighbouring English counties in 1950 and 1960.
        The Sphynx breed began in 1966 when a hairless kitten named Prune was born in Toronto, Canada. Despite appearances, Sphynx cats need regular baths because skin oils build up without fur to absorb them.
        The Maine Coon is one of the oldest natural breeds in North America. Its thick, water-resistant coat, tufted ears and large snowshoe-like paws suit the cold winters of its home state.
        Cats cannot taste sweet things because the gene for one part of the sweet receptor, Tas1r2, is broken. This fits their meat-based diet, which contains very little sugar.
        Whether a cat reacts to catnip depends on its genes. Roughly a third to a half of cats show no response at all, and kittens usually do not react until they are several months old.
        Silver vine and Tatarian honeysuckle can trigger the same rolling and rubbing behaviour as catnip, and many cats that ignore catnip respond to them instead.
        Cats’ claws are retractable: ligaments hold them tucked inside the paw at rest, and muscles in the toes extend them when needed for climbing, hunting or defence. This also keeps the tips sharp.
        Declawing removes the last bone of each toe, not just the claw. Many veterinary groups oppose it, and the practice is banned in a number of countries and in some U.S. states and cities.
        Cats are obligate carnivores. Their bodies cannot make enough of certain nutrients, such as taurine, arachidonic acid and vitamin A, from plant sources, so they must get them from animal tissue.
        Most cats groom themselves carefully every day. Swallowed fur can form hairballs, which are usually coughed up; frequent hairballs can be a sign of a skin or digestive problem worth checking.
        Domestic cats kill large numbers of birds and small mammals. In some places, especially on islands, free-roaming cats have contributed to the extinction of native species.
        Cats communicate with far more than meows: they use purrs, trills, chirps, hisses and growls, along with tail position, ear angle and scent marking, to signal their mood.
        A cat’s ears point forward when it is relaxed or interested, swivel sideways when it is uneasy and flatten back against the head when it is frightened or ready to fight.
        Kittens go through a key socialisation window between about two and seven weeks of age. Gentle handling by people during this time makes them far more likely to grow into friendly adult cats.
        Some cats have two different-coloured eyes, a condition called heterochromia. It is most common in white cats and in breeds such as the Turkish Van and Turkish Angora.
        A cat's heart normally beats about 140 to 220 times a minute, much faster than a human's. Its breathing rate at rest is roughly 20 to 30 breaths per minute.
        Cats hunt by stalking and pouncing rather than chasing prey over long distances. They rely on stealth, sharp hearing and a burst of speed, and most hunts end without a kill.
        Feral and free-roaming cats often form colonies around a food source. These groups are usually built around related females, who may help raise and guard each other's kittens.
        Cats keep their body temperature steady in many ways: they seek warm spots, curl up to save heat, and spread saliva on their fur when hot so that it cools them as it evaporates.
        In Japan, the maneki-neko, or beckoning cat figurine, is a popular good-luck charm often seen at the entrances of shops and restaurants, with one paw raised as if waving customers in.
        Black cats are seen as unlucky in some cultures but lucky in others. In parts of Britain and in Japan, for example, a black cat has long been thought to bring good fortune.
        The Cat Fanciers' Association was founded in 1906 in the United States and has grown into one of the largest registries of pedigreed cats in the world.
        The first large cat show was held at the Crystal Palace in London in 1871, organised by Harrison Weir, who is often called the father of the cat fancy.
        Siamese cats from Thailand, once called Siam, appear in old Thai manuscripts of verse known as the Tamra Maew, or Cat-Book Poems, which describe many kinds of cats.
        A cat's sense of balance comes from the vestibular system in its inner ear, which, together with its flexible spine and tail, helps it walk along narrow fences with ease.
        Many cats enjoy sunny windowsills. Their thermoneutral zone, the range in which they need no extra effort to stay warm, is higher than ours, at around 30–38 °C.
        Studies suggest that cats living together groom each other mostly around the head and neck, areas that are hard to reach alone, strengthening their social ties.
        Overweight cats are at higher risk of diabetes, arthritis and liver disease. Measured meals and regular play can help keep a cat at a healthy weight throughout its life.
        Hairless and rex breeds are not truly hypoallergenic. The main cat allergen, Fel d 1, comes mostly from saliva and skin glands, so people with allergies may still react to them.
        When a cat walks, its hind paws land almost exactly where its front paws stepped, a habit called direct registering that keeps noise and visible tracks to a minimum.
        The word “tabby” is thought to come from a striped silk taffeta made in the Attabiya quarter of Baghdad, whose pattern resembled the markings of the cat’s coat.
        Queens usually give birth without help. Labour often lasts several hours, with kittens arriving minutes to an hour or more apart, and the mother cleans each newborn right away.
        Cats can be trained with rewards just as dogs can. Many learn to sit, come when called, give a high-five or use a cat door, especially with short sessions and tasty treats.
        Toxoplasma gondii, a parasite that completes its life cycle in cats, can be harmful during human pregnancy, which is why pregnant people are advised to let someone else clean the litter box.
        Female cats are induced ovulators: mating triggers the release of eggs, which is why a queen in heat can conceive quickly and may mate several times over a few days.
        Cats have lived alongside people for around 10,000 years, yet genetic studies suggest domestic cats have changed less from their wild ancestors than dogs have from wolves.
        Cats’ noses pick up pheromones as well as smells. Synthetic copies of the facial pheromone cats leave when rubbing their cheeks are sold to help anxious cats feel more at ease.
        Common human painkillers such as paracetamol (acetaminophen) are highly toxic to cats, even in small doses, because cats lack some of the liver enzymes needed to break them down.
        Norse mythology says the goddess Freyja rode in a chariot drawn by two cats, and many Norwegians like to link those cats with the long-haired Norwegian Forest Cat.
        """
}
