"""Lesson 4 · Sharps, flats and the black keys."""

from __future__ import annotations

from musicgames.lessons.plan import Md, Plan, Step, T
from musicgames.render import CHORD_TONE_COLOURS

RED, YELLOW, BLUE = CHORD_TONE_COLOURS
#: The two names of each black key, taught in section 2.
BLACK_KEY_NAMES = ("Do#", "Reb", "Re#", "Mib", "Fa#", "Solb", "Sol#", "Lab", "La#", "Sib")

PLAN = Plan(
    id="04-sharps-and-flats",
    files=T(en="04-sharps-and-flats.ipynb", es="04-sostenidos-y-bemoles.ipynb", fr="04-dieses-et-bemols.ipynb"),
    cells=(
        Md(T(
            en="""# Lesson 4 · Sharps, flats and the black keys

**By the end of this lesson you will be able to:**

1. count **half steps** on the keyboard, black keys included;
2. read a **sharp** (♯) and a **flat** (♭) on the staff, and find its key;
3. give both names of every black key — **Fa♯ = Sol♭** (F♯ = G♭) — and say why a chord uses one of them and not the other.""",
            es="""# Lección 4 · Sostenidos, bemoles y teclas negras

**Al terminar esta lección podrás:**

1. contar **semitonos** en el teclado, con las teclas negras;
2. leer un **sostenido** (♯) y un **bemol** (♭) en el pentagrama y encontrar su tecla;
3. dar los dos nombres de cada tecla negra —**Fa♯ = Sol♭**— y decir por qué un acorde usa uno y no el otro.""",
            fr="""# Leçon 4 · Dièses, bémols et touches noires

**À la fin de cette leçon, tu sauras :**

1. compter les **demi-tons** sur le clavier, touches noires comprises ;
2. lire un **dièse** (♯) et un **bémol** (♭) sur la portée, et trouver sa touche ;
3. donner les deux noms de chaque touche noire — **fa♯ = sol♭** — et dire pourquoi un accord utilise l'un et pas l'autre.""",
        )),
        Md(T(
            en="""## 1. Half steps

So far every note was a white key. Between most white keys there is a **black key**. From any key to the very next one — black or white, up or down — is a **half step** (a *semitone*); two half steps make a **whole step**.

Look where the black keys are missing: between **Mi and Fa** (E and F) and between **Si and Do** (B and C), in yellow below. Those white keys are only a half step apart.""",
            es="""## 1. Semitonos

Hasta ahora cada nota era una tecla blanca. Entre la mayoría de las teclas blancas hay una **tecla negra**. De una tecla a la de al lado —negra o blanca, hacia arriba o hacia abajo— hay un **semitono**; dos semitonos forman un **tono**.

Mira dónde faltan teclas negras: entre **Mi y Fa** y entre **Si y Do** (en amarillo, abajo). Esas teclas blancas están a solo un semitono.""",
            fr="""## 1. Les demi-tons

Jusqu'ici, chaque note était une touche blanche. Entre la plupart des touches blanches, il y a une **touche noire**. D'une touche à sa voisine immédiate — noire ou blanche, vers le haut ou vers le bas —, il y a un **demi-ton** ; deux demi-tons font un **ton**.

Regarde où il manque des touches noires : entre **mi et fa** et entre **si et do** (en jaune ci-dessous). Ces touches blanches ne sont qu'à un demi-ton l'une de l'autre.""",
        )),
        Step("half-step-keys", "keyboard", 2,  # two octaves: Si3 and the Do4 above it
             highlight=dict.fromkeys(("Mi3", "Fa3", "Si3", "Do4", "Mi4", "Fa4"), YELLOW),
             black_labels=False),
        Md(T(
            en="""### Exercise 1 · Count the half steps
Go from the red key up to the blue one, key by key, black keys included, and count the moves: each move to the very next key is one half step. Count the moves, not the keys: from Do to Re you touch 3 keys (Do, the black key, Re) but make 2 moves.""",
            es="""### Ejercicio 1 · Cuenta los semitonos
Ve de la tecla roja a la azul, tecla por tecla, con las teclas negras, y cuenta cuántas veces te mueves a la tecla de al lado: cada movimiento es un semitono. Cuenta los movimientos, no las teclas: de Do a Re tocas 3 teclas (Do, la negra y Re), pero te mueves 2 veces.""",
            fr="""### Exercice 1 · Compte les demi-tons
Va de la touche rouge à la touche bleue, touche par touche, touches noires comprises, et compte les déplacements : chaque passage à la touche voisine est un demi-ton. Compte les déplacements, pas les touches : de do à ré, tu touches 3 touches (do, la touche noire, ré) mais tu te déplaces 2 fois.""",
        )),
        Step("half-steps", "half_steps",
             [("Mi3", "Fa3"), ("Do3", "Re3"), ("Re3", "Fa3"), ("Si3", "Do4"), ("Do3", "Mi3"),
              ("La3", "Do4")]),
        Md(T(
            en="""## 2. Sharps and flats

A **sharp** ♯ raises a note by a half step: **Fa♯** (F♯) is the key just to the right of Fa — a black key. A **flat** ♭ lowers a note by a half step: **Si♭** (B♭) is the key just to the left of Si.

On the staff the sign stands just before the note head, on the same line or in the same space: the head says *which* note, the sign says *raise* or *lower* it.""",
            es="""## 2. Sostenidos y bemoles

Un **sostenido** ♯ sube una nota un semitono: **Fa♯** es la tecla justo a la derecha de Fa, una tecla negra. Un **bemol** ♭ baja una nota un semitono: **Si♭** es la tecla justo a la izquierda de Si.

En el pentagrama el signo va justo antes de la cabeza de la nota, en la misma línea o en el mismo espacio: la cabeza dice *qué* nota es; el signo dice que hay que *subirla* o *bajarla*.""",
            fr="""## 2. Dièses et bémols

Un **dièse** ♯ hausse une note d'un demi-ton : **fa♯** est la touche juste à droite de fa, une touche noire. Un **bémol** ♭ baisse une note d'un demi-ton : **si♭** est la touche juste à gauche de si.

Sur la portée, l'altération se place juste avant la tête de la note, sur la même ligne ou dans le même interligne : la tête dit *quelle* note, l'altération dit de la *hausser* ou de la *baisser*.""",
        ), teaches=BLACK_KEY_NAMES),
        Step("sharp-flat-staff", "staff", ["Fa3", "Fa#3", "Si3", "Sib3"], labels=True),
        Step("sharp-flat-keys", "keyboard", 1,
             highlight={"Fa3": YELLOW, "Fa#3": RED, "Si3": YELLOW, "Sib3": BLUE}),
        Md(T(
            en="""### Exercise 2 · Read the sign
The head tells you the note; the sign before it raises (♯) or lowers (♭) it.""",
            es="""### Ejercicio 2 · Lee el signo
La cabeza te dice la nota; el signo que va delante la sube (♯) o la baja (♭).""",
            fr="""### Exercice 2 · Lis l'altération
La tête te donne la note ; l'altération placée devant la hausse (♯) ou la baisse (♭).""",
        )),
        Step("read-accidentals", "read_accidentals", ["Fa#3", "Sib3", "Do#4", "Mib3", "Sol#3"]),
        Md(T(
            en="""## 3. Two names, one key

Every black key has **two names**. The black key between Fa and Sol is Fa raised — **Fa♯** — and it is also Sol lowered — **Sol♭**. Same key, same sound, two names (musicians call them *enharmonic*):

| black key between | raised name | lowered name |
|---|---|---|
| Do and Re (C, D) | Do♯ (C♯) | Re♭ (D♭) |
| Re and Mi (D, E) | Re♯ (D♯) | Mi♭ (E♭) |
| Fa and Sol (F, G) | Fa♯ (F♯) | Sol♭ (G♭) |
| Sol and La (G, A) | Sol♯ (G♯) | La♭ (A♭) |
| La and Si (A, B) | La♯ (A♯) | Si♭ (B♭) |

### Exercise 3 · The black keys' names""",
            es="""## 3. Dos nombres, una tecla

Cada tecla negra tiene **dos nombres**. La tecla negra entre Fa y Sol es Fa sostenido —**Fa♯**— y también Sol bemol —**Sol♭**—. La misma tecla, el mismo sonido, dos nombres (se llaman notas *enarmónicas*):

| tecla negra entre | con sostenido | con bemol |
|---|---|---|
| Do y Re | Do♯ | Re♭ |
| Re y Mi | Re♯ | Mi♭ |
| Fa y Sol | Fa♯ | Sol♭ |
| Sol y La | Sol♯ | La♭ |
| La y Si | La♯ | Si♭ |

### Ejercicio 3 · Los nombres de las teclas negras""",
            fr="""## 3. Deux noms, une touche

Chaque touche noire a **deux noms**. La touche noire entre fa et sol, c'est fa haussé — **fa♯** — et c'est aussi sol baissé — **sol♭**. Même touche, même son, deux noms (on dit que ces notes sont *enharmoniques*) :

| touche noire entre | avec un dièse | avec un bémol |
|---|---|---|
| do et ré | do♯ | ré♭ |
| ré et mi | ré♯ | mi♭ |
| fa et sol | fa♯ | sol♭ |
| sol et la | sol♯ | la♭ |
| la et si | la♯ | si♭ |

### Exercice 3 · Les noms des touches noires""",
        )),
        Step("black-keys", "black_key_names", ["Fa#3", "Do#3", "Sib3", "Mib3", "Sol#3"]),
        Md(T(en="### Exercise 4 · The same key", es="### Ejercicio 4 · La misma tecla", fr="### Exercice 4 · La même touche")),
        Step("enharmonic", "enharmonic", ["Fa#3", "Sib3", "Do#3", "Mib3", "Lab3"]),
        Md(T(
            en="""## 4. Why a chord is spelled the way it is

If Fa♯ and Sol♭ are the same key, which name is right? It depends on the music around it. A chord of three notes — a **triad** — is built on every other letter name: skip one, take one. On Re (D): **Re**, skip Mi, **Fa**, skip Sol, **La**. The bright chord on Re (Re major, lesson 5) needs the black key 4 half steps above Re; its letter must be a kind of Fa, so it is **Fa♯**, never Sol♭: Re – Fa♯ – La.

The same goes for flats: the major chord on Mi♭ (E♭) is **Mi♭ – Sol – Si♭**: the letters Mi, Sol, Si, so its top note is Si♭, never La♯. A black key that is not one of the chord's three tones is named as the chord's **scale** names it: the seven notes that go with the chord, each letter once (the Fa major scale: Fa Sol La Si♭ Do Re Mi).""",
            es="""## 4. Por qué un acorde se escribe así

Si Fa♯ y Sol♭ son la misma tecla, ¿cuál es el nombre correcto? Depende de la música que la rodea. Un acorde de tres notas —una **tríada**— se arma con un nombre sí y uno no: saltas uno, tomas uno. Sobre Re: **Re**, saltas Mi, **Fa**, saltas Sol, **La**. El acorde brillante sobre Re (Re mayor, lección 5) necesita la tecla negra que está 4 semitonos arriba de Re; su nombre tiene que ser un Fa, así que es **Fa♯**, nunca Sol♭: Re – Fa♯ – La.

Con los bemoles pasa lo mismo: el acorde mayor sobre Mi♭ es **Mi♭ – Sol – Si♭**: los nombres Mi, Sol, Si, así que su nota de arriba es Si♭, nunca La♯. Una tecla negra que no es una de las tres notas del acorde se nombra como la nombra la **escala** del acorde: las siete notas que van con él, cada nombre una sola vez (la escala de Fa mayor: Fa Sol La Si♭ Do Re Mi).""",
            fr="""## 4. Pourquoi un accord s'écrit ainsi

Si fa♯ et sol♭ sont la même touche, quel est le bon nom ? Cela dépend de la musique autour. Un accord de trois sons — un **accord parfait** — se construit en prenant un nom sur deux : on en saute un, on en prend un. Sur ré : **ré**, on saute mi, **fa**, on saute sol, **la**. L'accord lumineux sur ré (ré majeur, leçon 5) a besoin de la touche noire 4 demi-tons au-dessus de ré ; son nom doit être un fa, donc c'est **fa♯**, jamais sol♭ : ré – fa♯ – la.

C'est pareil avec les bémols : l'accord majeur sur mi♭ est **mi♭ – sol – si♭** : les noms mi, sol, si, donc sa note du haut est si♭, jamais la♯. Une touche noire qui n'est pas l'une des trois notes de l'accord se nomme comme la nomme la **gamme** de l'accord : les sept notes qui vont avec lui, chaque nom une seule fois (la gamme de fa majeur : fa sol la si♭ do ré mi).""",
        )),
        Step("chords-staff", "staff", [("Re3", "Fa#3", "La3"), ("Mib3", "Sol3", "Sib3")]),
        Step("chords-keys", "keyboard", 2, chord=["Re major", "Mib major"]),
        Md(T(
            en="""### Exercise 5 · Which name?
The chord's three tones are coloured on the keyboard. Name the black key the way this chord spells it: by the chord's letters, or by its scale.""",
            es="""### Ejercicio 5 · ¿Qué nombre?
Las tres notas del acorde están coloreadas en el teclado. Nombra la tecla negra como la escribe este acorde: por los nombres del acorde o por su escala.""",
            fr="""### Exercice 5 · Quel nom ?
Les trois notes de l'accord sont en couleur sur le clavier. Nomme la touche noire comme cet accord l'écrit : d'après les noms de l'accord, ou d'après sa gamme.""",
        )),
        Step("spell", "spell_in_chord",
             [("Re major", 6), ("Mib major", 10), ("La major", 1), ("Fa major", 10),
              ("Fa minor", 8), ("Sol major", 6)]),
        Md(T(
            en="""## 5. Play: find the black keys

A note with a sharp or a flat appears on the staff: click its key on the keyboard. Notes you miss come back more often.""",
            es="""## 5. A jugar: encuentra las teclas negras

Aparece en el pentagrama una nota con sostenido o bemol: haz clic en su tecla del teclado. Las notas que fallas vuelven más seguido.""",
            fr="""## 5. On joue : trouve les touches noires

Une note avec un dièse ou un bémol apparaît sur la portée : clique sur sa touche du clavier. Les notes que tu manques reviennent plus souvent.""",
        )),
        Step("drill", "drill", ["Fa#3", "Sib3", "Do#4", "Mib3", "Sol#3", "Lab3", "Re#4", "Reb4"],
             answer_with=["keyboard"], questions=10, intro=T(
                 en="Ten notes with a sharp or a flat: click each one's black key. A sharp is "
                 "the key just to the right of the white key, a flat the key just to its left.",
                 es="Diez notas con sostenido o bemol: haz clic en la tecla negra de cada una. "
                 "El sostenido es la tecla justo a la derecha de la blanca; el bemol, la que "
                 "está justo a su izquierda.",
                 fr="Dix notes avec un dièse ou un bémol : clique sur la touche noire de "
                 "chacune. Le dièse, c'est la touche juste à droite de la blanche ; le bémol, "
                 "celle juste à sa gauche.")),
    ),
    learned=(
        T(en="From one key to the next, black or white, is a half step; Mi–Fa and Si–Do have no "
          "black key between them.",
          es="De una tecla a la siguiente, negra o blanca, hay un semitono; entre Mi–Fa y Si–Do "
          "no hay tecla negra.",
          fr="D'une touche à la suivante, noire ou blanche, il y a un demi-ton ; entre mi–fa et si–do, il n'y a pas de touche noire."),
        T(en="A sharp ♯ raises a note a half step, a flat ♭ lowers it; the sign stands before "
          "the note head.",
          es="El sostenido ♯ sube una nota un semitono y el bemol ♭ la baja; el signo va antes "
          "de la cabeza de la nota.",
          fr="Un dièse ♯ hausse une note d'un demi-ton, un bémol ♭ la baisse ; l'altération se place avant la tête de la note."),
        T(en="Every black key has two names (Fa♯ = Sol♭); a chord uses the one that keeps every "
          "other letter: Re – Fa♯ – La.",
          es="Cada tecla negra tiene dos nombres (Fa♯ = Sol♭); un acorde usa el que mantiene un "
          "nombre sí y uno no: Re – Fa♯ – La.",
          fr="Chaque touche noire a deux noms (fa♯ = sol♭) ; un accord utilise celui qui garde un nom sur deux : ré – fa♯ – la."),
    ),
    next=T(en="Next: lesson 5 builds chords — root, third and fifth, major and minor.",
           es="Después: la lección 5 arma acordes: fundamental, tercera y quinta, mayores y "
           "menores.",
           fr="Ensuite : la leçon 5 construit des accords : fondamentale, tierce et quinte, majeurs et mineurs."),
    practise=("drill",),
)
