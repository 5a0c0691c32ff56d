"""Lesson 5 · Chord tones."""

from __future__ import annotations

from musicgames.lessons.plan import Md, Plan, Step, T

PLAN = Plan(
    id="05-chord-tones",
    files=T(en="05-chord-tones.ipynb", es="05-notas-del-acorde.ipynb", fr="05-les-notes-de-l-accord.ipynb"),
    cells=(
        Md(T(
            en="""# Lesson 5 · Chord tones

**By the end of this lesson you will be able to:**

1. build a **triad** on a root: the **root**, the **third** and the **fifth**;
2. tell a **major** triad from a **minor** one by its third — on paper and by ear;
3. find a triad's tones on the keyboard, in any octave, and name a triad you see.""",
            es="""# Lección 5 · Las notas del acorde

**Al terminar esta lección podrás:**

1. armar una **tríada** sobre una fundamental: la **fundamental**, la **tercera** y la **quinta**;
2. distinguir una tríada **mayor** de una **menor** por su tercera, en el papel y de oído;
3. encontrar las notas de una tríada en el teclado, en cualquier octava, y nombrar una tríada que ves.""",
            fr="""# Leçon 5 · Les notes de l'accord

**À la fin de cette leçon, tu sauras :**

1. construire un **accord parfait** sur une fondamentale : la **fondamentale**, la **tierce** et la **quinte** ;
2. distinguer un accord **majeur** d'un accord **mineur** par sa tierce, sur le papier et à l'oreille ;
3. trouver les notes d'un accord sur le clavier, dans n'importe quelle octave, et nommer un accord que tu vois.""",
        )),
        Md(T(
            en="""## 1. Three notes, every other step

A **triad** stacks three notes, each two steps above the one before: skip a note, take a note. Start on Do (C): skip Re, take **Mi**; skip Fa, take **Sol**. So the triad on Do is Do–Mi–Sol (C–E–G). The note it is built on is the **root**; the next is the **third** (three note names up: Do-Re-Mi); the top one is the **fifth** (five names up: Do-Re-Mi-Fa-Sol).

On the staff a triad looks like a snowman: all three notes on lines, or all in spaces.""",
            es="""## 1. Tres notas, un paso sí y uno no

Una **tríada** apila tres notas, cada una dos pasos encima de la anterior: saltas una nota, tomas una nota. Empieza en Do: saltas Re, tomas **Mi**; saltas Fa, tomas **Sol**. La tríada sobre Do es Do–Mi–Sol. La nota sobre la que se arma es la **fundamental**; la siguiente es la **tercera** (tres nombres hacia arriba: Do-Re-Mi); la de arriba es la **quinta** (cinco nombres hacia arriba: Do-Re-Mi-Fa-Sol).

En el pentagrama una tríada parece un muñeco de nieve: las tres notas en líneas, o las tres en espacios.""",
            fr="""## 1. Trois notes, un nom sur deux

Un **accord parfait** superpose trois notes, chacune deux degrés au-dessus de la précédente : on saute une note, on prend une note. Commence sur do : on saute ré, on prend **mi** ; on saute fa, on prend **sol**. L'accord sur do est donc do–mi–sol. La note sur laquelle il est construit est la **fondamentale** ; la suivante est la **tierce** (trois noms plus haut : do-ré-mi) ; celle du haut est la **quinte** (cinq noms plus haut : do-ré-mi-fa-sol).

Sur la portée, un accord parfait ressemble à un bonhomme de neige : les trois notes sur des lignes, ou les trois dans des interlignes.""",
        )),
        Step("snowman", "staff", ["Do3", "Mi3", "Sol3", ("Do3", "Mi3", "Sol3")], labels=True),
        Md(T(
            en="On the keyboard we colour the tones: **red** for the root, **yellow** for the "
            "third, **blue** for the fifth. Every Do, Mi and Sol on the keyboard belongs to the "
            "chord — the octave does not matter:",
            es="En el teclado coloreamos las notas: **rojo** la fundamental, **amarillo** la "
            "tercera, **azul** la quinta. Cada Do, Mi y Sol del teclado pertenece al acorde; "
            "la octava no importa:",
            fr="Sur le clavier, on colore les notes de l'accord : en **rouge** la fondamentale, en **jaune** la tierce, en **bleu** la quinte. Chaque do, mi et sol du clavier appartient à l'accord ; l'octave ne compte pas :",
        )),
        Step("do-major-keys", "keyboard", 2, chord="Do major"),
        Md(T(
            en="Here are five triads, measured in half steps (lesson 4): a **major third** is 4 "
            "half steps, a **minor third** 3, and a **perfect fifth** 7:",
            es="Aquí hay cinco tríadas, medidas en semitonos (lección 4): una **tercera mayor** "
            "tiene 4 semitonos, una **tercera menor** 3 y una **quinta justa** 7:",
            fr="Voici cinq accords parfaits, mesurés en demi-tons (leçon 4) : une **tierce majeure** compte 4 demi-tons, une **tierce mineure** 3, et une **quinte juste** 7 :",
        )),
        Step("triads-table", "triad_table",
             ["Do major", "Fa major", "Sol major", "Re minor", "La minor"]),
        Md(T(
            en="""### Exercise 1 · Root, third, fifth
Name the third of each triad: count up from the root, skipping one note name.""",
            es="""### Ejercicio 1 · Fundamental, tercera, quinta
Nombra la tercera de cada tríada: cuenta hacia arriba desde la fundamental, saltando un nombre.""",
            fr="""### Exercice 1 · Fondamentale, tierce, quinte
Nomme la tierce de chaque accord : compte vers le haut depuis la fondamentale, en sautant un nom.""",
        )),
        Step("thirds", "chord_tone",
             ["Do major", "Sol major", "Fa major", "Re minor", "La minor"], "third"),
        Md(T(
            en="""## 2. Major or minor? The third decides

Triads on the same root can sound bright (**major**) or dark (**minor**). The root and the fifth stay the same; only the third moves: 4 half steps above the root in a major triad, 3 in a minor one. Do major and Do minor, side by side:""",
            es="""## 2. ¿Mayor o menor? Decide la tercera

Las tríadas sobre la misma fundamental pueden sonar brillantes (**mayores**) u oscuras (**menores**). La fundamental y la quinta no cambian; solo se mueve la tercera: 4 semitonos arriba de la fundamental en una tríada mayor, 3 en una menor. Do mayor y Do menor, una al lado de la otra:""",
            fr="""## 2. Majeur ou mineur ? C'est la tierce qui décide

Les accords sur la même fondamentale peuvent sonner lumineux (**majeur**) ou sombre (**mineur**). La fondamentale et la quinte ne bougent pas ; seule la tierce change : 4 demi-tons au-dessus de la fondamentale dans un accord majeur, 3 dans un accord mineur. Do majeur et do mineur, côte à côte :""",
        )),
        Step("major-minor-staff", "staff", [("Do3", "Mi3", "Sol3"), ("Do3", "Mib3", "Sol3")]),
        Step("major-minor-keys", "keyboard", 2, chord=["Do major", "Do minor"]),
        Step("major-minor-table", "triad_table", ["Do major", "Do minor"]),
        Md(T(
            en="""### Exercise 2 · Major or minor?
Count the half steps from the root (red) up to the third (yellow): 4 for major, 3 for minor.""",
            es="""### Ejercicio 2 · ¿Mayor o menor?
Cuenta los semitonos desde la fundamental (roja) hasta la tercera (amarilla): 4 para mayor, 3 para menor.""",
            fr="""### Exercice 2 · Majeur ou mineur ?
Compte les demi-tons de la fondamentale (rouge) jusqu'à la tierce (jaune) : 4 pour majeur, 3 pour mineur.""",
        )),
        Step("quality", "chord_quality",
             ["Do major", "La minor", "Re major", "Sol major", "Mi minor", "Fa major"]),
        Md(T(
            en="""### Exercise 3 · By ear
Now without looking: press **Listen** and decide whether the chord sounds bright (major) or dark (minor). After your answer you see it, and why. (Switch the sound on in the settings at the top.)""",
            es="""### Ejercicio 3 · De oído
Ahora sin mirar: presiona **Escuchar** y decide si el acorde suena brillante (mayor) u oscuro (menor). Después de responder lo verás, y por qué. (Activa el sonido en los ajustes de arriba.)""",
            fr="""### Exercice 3 · À l'oreille
Maintenant sans regarder : appuie sur **Écouter** et décide si l'accord sonne lumineux (majeur) ou sombre (mineur). Après ta réponse, tu le vois, et pourquoi. (Active le son dans les réglages en haut.)""",
        )),
        Step("by-ear", "by_ear",
             ["Do major", "La minor", "Sol major", "Re minor", "Fa major", "Mi minor"]),
        Md(T(
            en="Now by ear against the clock: the chord quiz plays a triad; answer major or "
            "minor (click, or press 1 or 2). You can hear it again, together or one note "
            "after another.",
            es="Ahora de oído contra el reloj: el cuestionario toca una tríada; responde mayor "
            "o menor (con un clic, o con las teclas 1 o 2). Puedes volver a escucharla, con "
            "las notas juntas o una tras otra.",
            fr="Maintenant à l'oreille et contre la montre : le quiz des notes de l'accord joue un accord parfait ; réponds majeur ou mineur (d'un clic, ou avec les touches 1 ou 2). Tu peux le réécouter, les notes ensemble ou l'une après l'autre.",
        )),
        Step("ear-quiz", "quiz",
             ["Do major", "Do minor", "Sol major", "La minor", "Re major", "Re minor",
              "Fa major", "Mi minor"], mode="ear", questions=8, intro=T(
                  en="Eight triads by ear alone: listen, then answer major (bright) or minor "
                  "(dark). Hear it again, together or one note after another, as often as you "
                  "like.",
                  es="Ocho tríadas, solo de oído: escucha y responde mayor (luminosa) o menor "
                  "(oscura). Vuelve a escucharla, con las notas juntas o una tras otra, cuantas "
                  "veces quieras.",
                  fr="Huit accords, à l'oreille seulement : écoute, puis réponds majeur "
                  "(lumineux) ou mineur (sombre). Réécoute-le, notes ensemble ou l'une après "
                  "l'autre, autant de fois que tu veux.")),
        Md(T(
            en="""### Exercise 4 · The fifth
The fifth is two steps above the third — five note names above the root.""",
            es="""### Ejercicio 4 · La quinta
La quinta está dos pasos arriba de la tercera: cinco nombres arriba de la fundamental.""",
            fr="""### Exercice 4 · La quinte
La quinte est deux degrés au-dessus de la tierce : cinq noms au-dessus de la fondamentale.""",
        )),
        Step("fifths", "chord_tone", ["Sol major", "Re minor", "Mi minor", "Fa major"], "fifth"),
        Md(T(
            en="""## 3. Find chord tones on the keyboard

A chord's tones can be played in any octave and any order — they are still Do, Mi and Sol. In the quiz below, click the three keys of the triad it names. Click a key again to take it back. You see at once which keys were right, with the triad coloured in.

### Exercise 5 · Click the tones""",
            es="""## 3. Encuentra las notas del acorde en el teclado

Las notas de un acorde se pueden tocar en cualquier octava y en cualquier orden: siguen siendo Do, Mi y Sol. En el cuestionario de abajo, haz clic en las tres teclas de la tríada que se nombra. Vuelve a hacer clic en una tecla para quitarla. Verás enseguida qué teclas eran correctas, con la tríada coloreada.

### Ejercicio 5 · Haz clic en las notas""",
            fr="""## 3. Trouver les notes de l'accord sur le clavier

Les notes d'un accord peuvent se jouer dans n'importe quelle octave et dans n'importe quel ordre : ce sont toujours do, mi et sol. Dans le quiz ci-dessous, clique sur les trois touches de l'accord qu'il nomme. Clique de nouveau sur une touche pour la retirer. Tu vois tout de suite quelles touches étaient justes, avec l'accord en couleur.

### Exercice 5 · Clique sur les notes""",
        )),
        Step("find", "quiz", ["Do major", "Fa major", "Sol major", "La minor", "Re minor"],
             mode="find", questions=5, intro=T(
                 en="Five triads by their names: click their three tones on the keyboard — "
                 "root, third and fifth, in any octave and any order.",
                 es="Cinco tríadas por su nombre: haz clic en sus tres notas en el teclado "
                 "(fundamental, tercera y quinta), en cualquier octava y en cualquier orden.",
                 fr="Cinq accords par leur nom : clique sur leurs trois notes au clavier — "
                 "fondamentale, tierce et quinte —, dans n'importe quelle octave et dans "
                 "n'importe quel ordre.")),
        Md(T(
            en="""## 4. Play: the chord-tones quiz

Now the mixed quiz: sometimes it names a triad and you click its tones; sometimes it shows one on the staff and you pick its name (click, or press 1–4). Its chords use the sharps and flats of lesson 4. Chords you miss or answer slowly come back more often, and the summary at the end lists the ones to practise.""",
            es="""## 4. A jugar: el cuestionario de notas del acorde

Ahora el cuestionario mezclado: a veces nombra una tríada y haces clic en sus notas; a veces muestra una en el pentagrama y eliges su nombre (con un clic o con las teclas 1–4). Sus acordes usan los sostenidos y bemoles de la lección 4. Los acordes que fallas o respondes despacio vuelven más seguido, y el resumen del final dice cuáles practicar.""",
            fr="""## 4. On joue : le quiz des notes de l'accord

Maintenant le quiz mélangé : tantôt il nomme un accord et tu cliques sur ses notes, tantôt il en montre un sur la portée et tu choisis son nom (d'un clic, ou avec les touches 1 à 4). Ses accords utilisent les dièses et les bémols de la leçon 4. Les accords que tu manques ou auxquels tu réponds lentement reviennent plus souvent, et le bilan à la fin donne ceux à travailler.""",
        )),
        Step("quiz", "quiz", mode="mixed", questions=12, intro=T(
            en="Twelve questions, mixed: click the tones of the triad named, or name the triad "
            "shown on the staff. Its chords use the sharps and flats of lesson 4.",
            es="Doce preguntas mezcladas: haz clic en las notas de la tríada nombrada, o nombra "
            "la tríada del pentagrama. Sus acordes usan los sostenidos y bemoles de la lección 4.",
            fr="Douze questions mélangées : clique sur les notes de l'accord nommé, ou nomme "
            "l'accord montré sur la portée. Ses accords utilisent les dièses et les bémols de la "
            "leçon 4.")),
    ),
    learned=(
        T(en="A triad is root, third and fifth: every other note name (Do – Mi – Sol).",
          es="Una tríada es fundamental, tercera y quinta: un nombre sí y uno no (Do – Mi – Sol).",
          fr="Un accord parfait, c'est fondamentale, tierce et quinte : un nom sur deux (do – mi – sol)."),
        T(en="Major: 4 half steps from the root to the third; minor: 3. The fifth is 7 in both.",
          es="Mayor: 4 semitonos de la fundamental a la tercera; menor: 3. La quinta tiene 7 en "
          "las dos.",
          fr="Majeur : 4 demi-tons de la fondamentale à la tierce ; mineur : 3. La quinte en compte 7 dans les deux."),
        T(en="A chord's tones count in any octave and any order.",
          es="Las notas de un acorde valen en cualquier octava y en cualquier orden.",
          fr="Les notes d'un accord comptent dans n'importe quelle octave et dans n'importe quel ordre."),
    ),
    next=T(en="Next: lesson 6 shows why chord tones matter in a game of Keyboard Duel.",
           es="Después: la lección 6 muestra por qué importan las notas del acorde en una "
           "partida de Duelo de teclados.",
           fr="Ensuite : la leçon 6 montre pourquoi les notes de l'accord comptent, dans une partie de Duel de claviers."),
    practise=("quiz",),
)
