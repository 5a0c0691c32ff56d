"""Lesson 1 · The staff."""

from __future__ import annotations

from musicgames.lessons.plan import Md, Plan, Step, T

LINES = ["Mi3", "Sol3", "Si3", "Re4", "Fa4"]
SPACES = ["Fa3", "La3", "Do4", "Mi4"]
#: The seven note names, taught from the first page on.
NATURALS = ("Do", "Re", "Mi", "Fa", "Sol", "La", "Si")
STAFF = ["Mi3", "Fa3", "Sol3", "La3", "Si3", "Do4", "Re4", "Mi4", "Fa4"]

PLAN = Plan(
    id="01-the-staff",
    files=T(en="01-the-staff.ipynb", es="01-el-pentagrama.ipynb", fr="01-la-portee.ipynb"),
    cells=(
        Md(T(
            en="""# Lesson 1 · The staff

**By the end of this lesson you will be able to:**

1. name the five lines and four spaces of the staff, counting from the bottom;
2. recognise the treble clef — also called the **Sol clef** or **G clef** — and say which note it marks: **Sol3** (G4), on the second line;
3. read the notes on the lines and in the spaces, from Mi3 (E4) to Fa4 (F5), and find them on the keyboard.

There is no code to read or write: read, look, and click. Notes are named in two ways in this course — solfège (Do Re Mi…) and letters (C D E…); the text gives both, and the drawings and exercises use the one you choose in the settings just below.""",
            es="""# Lección 1 · El pentagrama

**Al terminar esta lección podrás:**

1. nombrar las cinco líneas y los cuatro espacios del pentagrama, contando desde abajo;
2. reconocer la clave de sol y decir qué nota marca: **Sol3**, en la segunda línea;
3. leer las notas de las líneas y de los espacios, de Mi3 a Fa4, y encontrarlas en el teclado.

No hay código que leer ni escribir: lee, mira y haz clic. En este curso las notas tienen dos nombres: el solfeo (Do Re Mi…) y las letras (C D E…). El texto usa el solfeo; los dibujos y los ejercicios usan el que elijas en los ajustes de aquí abajo.""",
            fr="""# Leçon 1 · La portée

**À la fin de cette leçon, tu sauras :**

1. nommer les cinq lignes et les quatre interlignes de la portée, en comptant depuis le bas ;
2. reconnaître la clé de sol et dire quelle note elle fixe : **sol3**, sur la deuxième ligne ;
3. lire les notes sur les lignes et dans les interlignes, de mi3 à fa4, et les trouver sur le clavier.

Il n'y a pas de code à lire ni à écrire : lis, regarde et clique. Dans ce cours, les notes ont deux noms : le solfège (do, ré, mi…) et les lettres (C, D, E…). Le texte utilise le solfège ; les dessins et les exercices utilisent celui que tu choisis dans les réglages juste en dessous. En français, les noms de notes s'écrivent en minuscules, avec leur numéro d'octave quand il compte : do, ré, mi… sol3.""",
        ), teaches=NATURALS),
        Md(T(
            en="""## 1. Five lines and four spaces

Music for one voice or instrument is written on a **staff** (or *stave*): five horizontal lines with four spaces between them. We count them **from the bottom up**: the bottom line is the 1st line and the top line is the 5th.

Every note head sits either **on a line** — the line goes right through the middle of the head — or **in a space**, between two lines, touching both.

Here are the notes on the five lines, from the bottom up:""",
            es="""## 1. Cinco líneas y cuatro espacios

La música para una voz o un instrumento se escribe en un **pentagrama**: cinco líneas horizontales con cuatro espacios entre ellas. Se cuentan **de abajo hacia arriba**: la línea de abajo es la 1.ª y la de arriba es la 5.ª.

La cabeza de cada nota está **en una línea** —la línea la atraviesa por el medio— o **en un espacio**, entre dos líneas, tocando las dos.

Estas son las notas de las cinco líneas, de abajo hacia arriba:""",
            fr="""## 1. Cinq lignes et quatre interlignes

La musique pour une voix ou un instrument s'écrit sur une **portée** : cinq lignes horizontales, avec quatre **interlignes** entre elles. On les compte **de bas en haut** : la ligne du bas est la 1re ligne, celle du haut la 5e.

La tête de chaque note est soit **sur une ligne** — la ligne la traverse en son milieu —, soit **dans un interligne**, entre deux lignes, en touchant les deux.

Voici les notes des cinq lignes, de bas en haut :""",
        )),
        Step("lines", "staff", LINES, labels=True),
        Md(T(en="And the notes in the four spaces:", es="Y las notas de los cuatro espacios:", fr="Et les notes des quatre interlignes :")),
        Step("spaces", "staff", SPACES, labels=True),
        Md(T(
            en="""Two ways to remember them:

| | solfège | letters | a memory aid |
|---|---|---|---|
| lines | Mi Sol Si Re Fa | E G B D F | *Every Good Boy Deserves Fruit* |
| spaces | Fa La Do Mi | F A C E | *FACE* |

### Exercise 1 · The staff
Click your answer: you will see at once whether it is right, and why.""",
            es="""Para recordarlas:

| | solfeo | letras |
|---|---|---|
| líneas | Mi Sol Si Re Fa | E G B D F |
| espacios | Fa La Do Mi | F A C E |

### Ejercicio 1 · El pentagrama
Haz clic en tu respuesta: verás enseguida si es correcta, y por qué.""",
            fr="""Pour les retenir :

| | solfège | lettres |
|---|---|---|
| lignes | mi sol si ré fa | E G B D F |
| interlignes | fa la do mi | F A C E |

### Exercice 1 · La portée
Clique sur ta réponse : tu verras tout de suite si elle est juste, et pourquoi.""",
        )),
        Step(
            "staff-lines",
            "choice",
            T(en="How many lines does a staff have?", es="¿Cuántas líneas tiene un pentagrama?", fr="Combien de lignes a une portée ?"),
            ["3", "4", "5", "6"],
            answer=2,
            explain=T(
                en="A staff has five lines, with four spaces between them, counted from the "
                "bottom up.",
                es="Un pentagrama tiene cinco líneas, con cuatro espacios entre ellas, contadas "
                "de abajo hacia arriba.",
                fr="Une portée a cinq lignes, avec quatre interlignes entre elles, comptées de bas en haut.",
            ),
            why=[
                T(en="Count the lines again, from the bottom: there are more than 3.",
                  es="Cuenta otra vez las líneas desde abajo: son más de 3.",
                  fr="Recompte les lignes depuis le bas : il y en a plus de 3."),
                T(en="4 is the number of spaces, between the lines.",
                  es="4 es el número de espacios, entre las líneas.",
                  fr="4, c'est le nombre d'interlignes, entre les lignes."),
                T(en="", es="", fr=""),
                T(en="Count again: the top line is the 5th.",
                  es="Cuenta otra vez: la línea de arriba es la 5.ª.",
                  fr="Recompte : la ligne du haut est la 5e."),
            ],
            title=T(en="Exercise 1 · The staff", es="Ejercicio 1 · El pentagrama", fr="Exercice 1 · La portée"),
        ),
        Md(T(
            en="""### Exercise 2 · Line or space?
Look at the note head: does a line go through it, or does it sit between two lines?""",
            es="""### Ejercicio 2 · ¿Línea o espacio?
Mira la cabeza de la nota: ¿una línea la atraviesa o está entre dos líneas?""",
            fr="""### Exercice 2 · Ligne ou interligne ?
Regarde la tête de la note : une ligne la traverse-t-elle, ou est-elle entre deux lignes ?""",
        )),
        Step("line-or-space", "line_or_space", ["Mi3", "La3", "Re4", "Do4", "Sol3", "Mi4"]),
        Md(T(
            en="""## 2. The treble clef marks Sol

Every staff begins with a **clef**. The one in these lessons is the **treble clef**. Its other names tell you what it does: it is the **Sol clef** (or **G clef**) because its curl wraps around the **2nd line**, and it says: *the note on this line is Sol3* (G4, the Sol just above middle C).

Every other note is counted from there. One step up, from the line into the next space, is the next note name, La3 (A4); one step down is Fa3 (F4):""",
            es="""## 2. La clave de sol marca el Sol

Cada pentagrama empieza con una **clave**. La de estas lecciones es la **clave de sol**: su rizo rodea la **2.ª línea** y dice: *la nota de esta línea es Sol3* (el Sol justo encima del Do central).

Las demás notas se cuentan desde ahí. Un paso hacia arriba, de la línea al espacio siguiente, es el nombre siguiente, La3; un paso hacia abajo es Fa3:""",
            fr="""## 2. La clé de sol fixe le sol

Chaque portée commence par une **clé**. Celle de ces leçons est la **clé de sol** : sa boucle s'enroule autour de la **2e ligne** et dit : *la note de cette ligne est sol3* (le sol juste au-dessus du do central).

Toutes les autres notes se comptent à partir de là. Un degré plus haut, de la ligne à l'interligne suivant, c'est le nom suivant, la3 ; un degré plus bas, c'est fa3 :""",
        )),
        Step("clef-steps", "staff", ["Fa3", "Sol3", "La3"], labels=True),
        Md(T(
            en="""### Exercise 3 · The clef
Which line does the clef curl around?""",
            es="""### Ejercicio 3 · La clave
¿Alrededor de qué línea se enrosca la clave?""",
            fr="""### Exercice 3 · La clé
Autour de quelle ligne la clé s'enroule-t-elle ?""",
        )),
        Step(
            "clef",
            "choice",
            T(en="Which line does the treble (Sol) clef curl around?",
              es="¿Alrededor de qué línea se enrosca la clave de sol?",
              fr="Autour de quelle ligne la clé de sol s'enroule-t-elle ?"),
            [T(en="1st", es="1.ª", fr="1re"), T(en="2nd", es="2.ª", fr="2e"), T(en="3rd", es="3.ª", fr="3e"), T(en="4th", es="4.ª", fr="4e"),
             T(en="5th", es="5.ª", fr="5e")],
            answer=1,
            picture=("staff", "Sol3"),
            explain=T(
                en="Its curl wraps around the 2nd line from the bottom: the note on that line is "
                "Sol3 (G4), and that is why it is called the Sol clef.",
                es="Su rizo rodea la 2.ª línea desde abajo: la nota de esa línea es Sol3, y por "
                "eso se llama clave de sol.",
                fr="Sa boucle s'enroule autour de la 2e ligne en partant du bas : la note de cette ligne est sol3, et c'est pour cela qu'on l'appelle la clé de sol.",
            ),
            why=[
                T(en="The 1st line is the bottom one: Mi3 sits there, not the clef's curl.",
                  es="La 1.ª línea es la de abajo: ahí está Mi3, no el rizo de la clave.",
                  fr="La 1re ligne est celle du bas : c'est celle de mi3, pas celle de la boucle de la clé."),
                T(en="", es="", fr=""),
                T(en="The 3rd line is the middle one, where Si3 sits: the curl is one line lower.",
                  es="La 3.ª línea es la del medio, la de Si3: el rizo está una línea más abajo.",
                  fr="La 3e ligne est celle du milieu, celle de si3 : la boucle est une ligne plus bas."),
                T(en="The 4th line holds Re4: the curl is two lines lower.",
                  es="En la 4.ª línea está Re4: el rizo está dos líneas más abajo.",
                  fr="Sur la 4e ligne, il y a ré4 : la boucle est deux lignes plus bas."),
                T(en="The 5th line is the top one, Fa4: the curl is near the bottom.",
                  es="La 5.ª línea es la de arriba, Fa4: el rizo está tres líneas más abajo.",
                  fr="La 5e ligne est celle du haut, fa4 : la boucle est trois lignes plus bas."),
            ],
            title=T(en="Exercise 3 · The clef", es="Ejercicio 3 · La clave", fr="Exercice 3 · La clé"),
        ),
        Md(T(
            en="""## 3. Reading notes step by step

Going up the staff — line, space, line, space… — each step is the next note name: Do Re Mi Fa Sol La Si (C D E F G A B), and then round again from Do (C). From the bottom line to the top line:""",
            es="""## 3. Leer las notas paso a paso

Subiendo por el pentagrama —línea, espacio, línea, espacio…— cada paso es el nombre siguiente: Do Re Mi Fa Sol La Si, y otra vez Do. De la línea de abajo a la de arriba:""",
            fr="""## 3. Lire les notes degré par degré

En montant sur la portée — ligne, interligne, ligne, interligne… —, chaque degré est le nom suivant : do ré mi fa sol la si, puis de nouveau do. De la ligne du bas à celle du haut :""",
        )),
        Step("staff-steps", "staff", STAFF, labels=True),
        Md(T(
            en="""Each of these notes is a **white key** on the piano. On a piano, **middle C** (Do3, C4) is the Do nearest the middle of the keyboard. The keyboard below *starts* on middle C — it is the first key on the left — and the notes of the staff start two white keys above it, on Mi3 (E4):""",
            es="""Cada una de estas notas es una **tecla blanca** del piano. En un piano, el **Do central** (Do3) es el Do más cercano al centro del teclado. El teclado de abajo *empieza* en el Do central —es la primera tecla de la izquierda— y las notas del pentagrama empiezan dos teclas blancas más arriba, en Mi3:""",
            fr="Chacune de ces notes est une **touche blanche** du piano. Sur un piano, le **do central** (do3) est le do le plus proche du milieu du clavier. Le clavier ci-dessous *commence* sur le do central — c'est la première touche à gauche — et les notes de la portée commencent deux touches blanches plus haut, sur mi3 :",
        )),
        Step("staff-keys", "keyboard", 2, highlight=STAFF, black_labels=False),
        Md(T(
            en="""### Exercise 4 · Name the note
Which note is it? Find the Sol line first and count from there, or use the memory aids.""",
            es="""### Ejercicio 4 · Nombra la nota
¿Qué nota es? Busca primero la línea del Sol y cuenta desde ahí.""",
            fr="""### Exercice 4 · Nomme la note
Quelle est cette note ? Cherche d'abord la ligne du sol et compte à partir de là.""",
        )),
        Step("name-notes", "name_notes", STAFF, questions=6),
        Md(T(
            en="""## 4. Play: the note drill

Now read as fast as you can. Press **Start**; a note appears on the staff. Answer by clicking its name, by pressing keys **1–7** (1 = Do/C … 7 = Si/B), or by clicking its key on the keyboard (there the octave counts). You see at once whether you were right.

The drill adapts to you: the notes you miss, or answer slowly, come back more often. At the end you see which notes to practise. Play as many rounds as you like.""",
            es="""## 4. A jugar: la práctica de notas

Ahora lee lo más rápido que puedas. Presiona **Empezar** y aparece una nota en el pentagrama. Responde haciendo clic en su nombre, presionando las teclas **1–7** (1 = Do … 7 = Si) o haciendo clic en su tecla del teclado (ahí cuenta la octava). Verás enseguida si acertaste.

La práctica se adapta a ti: las notas que fallas, o que respondes despacio, vuelven más seguido. Al final verás qué notas practicar. Juega todas las rondas que quieras.""",
            fr="""## 4. On joue : la lecture de notes

Maintenant, lis le plus vite possible. Appuie sur **Commencer** : une note apparaît sur la portée. Réponds en cliquant sur son nom, en appuyant sur les touches **1 à 7** (1 = do … 7 = si) ou en cliquant sur sa touche du clavier (là, l'octave compte). Tu vois tout de suite si tu as bien répondu.

La lecture de notes s'adapte à toi : les notes que tu manques, ou auxquelles tu réponds lentement, reviennent plus souvent. À la fin, tu vois quelles notes travailler. Joue autant de séries que tu veux.""",
        )),
        Step("drill", "drill", STAFF, questions=15, intro=T(
            en="Fifteen questions on the nine notes inside the staff, from the bottom line to "
            "the top line: find each note's line or space, then name it.",
            es="Quince preguntas sobre las nueve notas dentro del pentagrama, de la línea de "
            "abajo a la de arriba: busca la línea o el espacio de cada nota y nómbrala.",
            fr="Quinze questions sur les neuf notes de la portée, de la ligne du bas à celle "
            "du haut : repère la ligne ou l'interligne de chaque note, puis nomme-la.")),
    ),
    learned=(
        T(en="The staff has five lines and four spaces, counted from the bottom up.",
          es="El pentagrama tiene cinco líneas y cuatro espacios, contados de abajo hacia arriba.",
          fr="La portée a cinq lignes et quatre interlignes, comptés de bas en haut."),
        T(en="The treble clef curls around the 2nd line: that line is Sol3 (G4).",
          es="La clave de sol rodea la 2.ª línea: esa línea es Sol3.",
          fr="La clé de sol s'enroule autour de la 2e ligne : cette ligne, c'est sol3."),
        T(en="Lines Mi Sol Si Re Fa, spaces Fa La Do Mi; each step up is the next note name.",
          es="Líneas Mi Sol Si Re Fa, espacios Fa La Do Mi; cada paso hacia arriba es el nombre "
          "siguiente.",
          fr="Lignes mi sol si ré fa, interlignes fa la do mi ; chaque degré vers le haut est le nom suivant."),
    ),
    next=T(en="Next: lesson 2 numbers the octaves and adds the notes on ledger lines, Do3 to Do5.",
           es="Después: la lección 2 numera las octavas y agrega las notas en líneas adicionales, "
           "de Do3 a Do5.",
           fr="Ensuite : la leçon 2 numérote les octaves et ajoute les notes sur lignes supplémentaires, de do3 à do5."),
    practise=("drill",),
)
