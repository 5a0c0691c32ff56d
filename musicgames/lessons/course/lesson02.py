"""Lesson 2 · Octaves: Do3 to Do5."""

from __future__ import annotations

from musicgames.lessons.plan import Md, Plan, Step, T
from musicgames.theory import CARD_NOTES

ALL = [n.solfege for n in CARD_NOTES]

PLAN = Plan(
    id="02-octaves-do3-to-do5",
    files=T(en="02-octaves-do3-to-do5.ipynb", es="02-octavas-do3-a-do5.ipynb", fr="02-octaves-do3-a-do5.ipynb"),
    cells=(
        Md(T(
            en="""# Lesson 2 · Octaves: Do3 to Do5

**By the end of this lesson you will be able to:**

1. give every note from **Do3** (middle C) to **Do5** its octave number, in Franco-Belgian solfège (Do3) and in scientific letter names (C4) — and turn one into the other;
2. read notes on **ledger lines** below and above the staff;
3. find each of these notes on the keyboard, in the right octave.""",
            es="""# Lección 2 · Octavas: de Do3 a Do5

**Al terminar esta lección podrás:**

1. dar a cada nota de **Do3** (el Do central) a **Do5** su número de octava, en solfeo franco-belga (Do3) y en letras con numeración científica (C4), y pasar de una a otra;
2. leer notas en **líneas adicionales** debajo y encima del pentagrama;
3. encontrar cada una de estas notas en el teclado, en la octava correcta.""",
            fr="""# Leçon 2 · Les octaves : de do3 à do5

**À la fin de cette leçon, tu sauras :**

1. donner à chaque note de **do3** (le do central) à **do5** son numéro d'octave, en solfège franco-belge (do3) et en lettres avec la numérotation scientifique (C4), et passer de l'un à l'autre ;
2. lire les notes sur les **lignes supplémentaires**, au-dessous et au-dessus de la portée ;
3. trouver chacune de ces notes sur le clavier, dans la bonne octave.""",
        )),
        Md(T(
            en="""## 1. Two ways to number octaves

An **octave** runs from one Do (C) up to the next. To say *which* Do, Re, Mi… we add the octave's number. Two numberings are in common use:

* **Franco-Belgian** (used with solfège in France, Belgium, Spain, Latin America…): middle C is **Do3**;
* **scientific** (used with letter names, in most English-speaking countries): middle C is **C4**.

So the scientific number is always **one more**: Do3 = C4, Sol3 = G4, Do5 = C6. The 15 notes of this course, both ways:""",
            es="""## 1. Dos maneras de numerar las octavas

Una **octava** va de un Do al Do siguiente. Para decir *qué* Do, Re, Mi… agregamos el número de la octava. Hay dos numeraciones muy usadas:

* la **franco-belga** (con el solfeo, en Francia, Bélgica, España, América Latina…): el Do central es **Do3**;
* la **científica** (con las letras, en los países de habla inglesa): el Do central es **C4**.

El número científico siempre es **uno más**: Do3 = C4, Sol3 = G4, Do5 = C6. Las 15 notas de este curso, de las dos maneras:""",
            fr="""## 1. Deux façons de numéroter les octaves

Une **octave** va d'un do au do suivant. Pour dire *quel* do, ré, mi…, on ajoute le numéro de l'octave. Deux numérotations sont courantes :

* la **franco-belge** (avec le solfège, en France, en Belgique, en Espagne, en Amérique latine…) : le do central est **do3** ;
* la **scientifique** (avec les lettres, dans les pays anglophones) : le do central est **C4**.

Le numéro scientifique a donc toujours **un de plus** : do3 = C4, sol3 = G4, do5 = C6. Les 15 notes de ce cours, des deux façons :""",
        )),
        Step("octave-table", "octave_table"),
        Md(T(
            en="On the keyboard, each octave starts on a Do (C), just left of a pair of black "
            "keys. Here are Do3, Do4 and Do5, every white key named with its octave:",
            es="En el teclado, cada octava empieza en un Do, justo a la izquierda de un par de "
            "teclas negras. Aquí están Do3, Do4 y Do5; cada tecla blanca lleva su nombre con "
            "su octava:",
            fr="Sur le clavier, chaque octave commence sur un do, juste à gauche d'un groupe de deux touches noires. Voici do3, do4 et do5 ; chaque touche blanche porte son nom avec son octave :",
        )),
        Step("do-keys", "keyboard", 3, highlight=["Do3", "Do4", "Do5"], octave_labels=True, black_labels=False),
        Md(T(
            en="""### Exercise 1 · Both numbers
Translate each note into the other naming.""",
            es="""### Ejercicio 1 · Los dos números
Pasa cada nota a la otra manera de nombrarla.""",
            fr="""### Exercice 1 · Les deux numéros
Écris chaque note dans l'autre façon de la nommer.""",
        )),
        Step("octave-names", "octave_names", ["Do3", "Sol3", "La3", "Mi4", "Do5"]),
        Md(T(
            en="""## 2. Ledger lines

The staff has room for Mi3 (E4) to Fa4 (F5), plus one note hanging just outside on each side: Re3 (D4) just below the bottom line and Sol4 (G5) just above the top line. For notes further out we draw short **ledger lines**, as if the staff went on.

Below the staff, **Do3** — middle C — sits on one ledger line:""",
            es="""## 2. Líneas adicionales

En el pentagrama caben de Mi3 a Fa4, más una nota colgando justo afuera de cada lado: Re3 justo debajo de la línea de abajo y Sol4 justo encima de la línea de arriba. Para las notas más alejadas se dibujan **líneas adicionales** cortas, como si el pentagrama siguiera.

Debajo del pentagrama, **Do3** —el Do central— está en una línea adicional:""",
            fr="""## 2. Les lignes supplémentaires

La portée a de la place pour les notes de mi3 à fa4, plus une note accrochée juste à l'extérieur de chaque côté : ré3 juste sous la ligne du bas et sol4 juste au-dessus de la ligne du haut. Pour les notes plus éloignées, on trace de courtes **lignes supplémentaires**, comme si la portée continuait.

Sous la portée, **do3** — le do central — est sur une ligne supplémentaire :""",
        )),
        Step("below", "staff", ["Do3", "Re3", "Mi3"], labels=True),
        Md(T(
            en="Above the staff, **La4** sits on a ledger line, **Si4** just above it, and "
            "**Do5** on a second ledger line:",
            es="Encima del pentagrama, **La4** está en una línea adicional, **Si4** justo encima "
            "de ella y **Do5** en una segunda línea adicional:",
            fr="Au-dessus de la portée, **la4** est sur une ligne supplémentaire, **si4** juste au-dessus, et **do5** sur une deuxième ligne supplémentaire :",
        )),
        Step("above", "staff", ["Fa4", "Sol4", "La4", "Si4", "Do5"], labels=True),
        Md(T(en="All fifteen notes, Do3 to Do5:", es="Las quince notas, de Do3 a Do5:", fr="Les quinze notes, de do3 à do5 :")),
        Step("all-notes", "staff", ALL, labels=True),
        Md(T(en="### Exercise 2 · Count the ledger lines",
             es="### Ejercicio 2 · Cuenta las líneas adicionales",
             fr="### Exercice 2 · Compte les lignes supplémentaires")),
        Step("ledger", "ledger_line_count", ["Do3", "Re3", "La4", "Si4", "Do5", "Sol4"]),
        Md(T(
            en="""## 3. The same notes on the keyboard

The fifteen notes are fifteen white keys in a row, from middle C up two octaves:""",
            es="""## 3. Las mismas notas en el teclado

Las quince notas son quince teclas blancas seguidas, desde el Do central, dos octavas hacia arriba:""",
            fr="""## 3. Les mêmes notes sur le clavier

Les quinze notes sont quinze touches blanches qui se suivent, du do central jusqu'à deux octaves plus haut :""",
        )),
        Step("all-keys", "keyboard", 3, highlight=ALL, octave_labels=True, black_labels=False),
        Md(T(
            en="""### Exercise 3 · Which key is it?
The octave matters here: count the Do keys from the left (the keyboard starts on Do3).""",
            es="""### Ejercicio 3 · ¿Qué tecla es?
Aquí importa la octava: cuenta las teclas Do desde la izquierda (el teclado empieza en Do3).""",
            fr="""### Exercice 3 · Quelle touche est-ce ?
Ici, l'octave compte : compte les touches do depuis la gauche (le clavier commence sur do3).""",
        )),
        Step("marked-key", "marked_key", ["Do3", "Sol3", "Do4", "La4", "Re3", "Do5"]),
        Md(T(
            en="""### Exercise 4 · Find the key
A note appears on the staff: click its key on the keyboard — in the right octave.""",
            es="""### Ejercicio 4 · Busca la tecla
Aparece una nota en el pentagrama: haz clic en su tecla del teclado, en la octava correcta.""",
            fr="""### Exercice 4 · Trouve la touche
Une note apparaît sur la portée : clique sur sa touche du clavier, dans la bonne octave.""",
        )),
        Step("find-key", "drill", ALL, answer_with=["keyboard"], questions=8, intro=T(
            en="Eight notes from the whole range, ledger lines included: click each one's key "
            "on the keyboard, in the right octave (count the Do keys from the left).",
            es="Ocho notas de todo el registro, con sus líneas adicionales: haz clic en la "
            "tecla de cada una, en la octava correcta (cuenta las teclas Do desde la izquierda).",
            fr="Huit notes de toute l'étendue, lignes supplémentaires comprises : clique sur la "
            "touche de chacune, dans la bonne octave (compte les touches do depuis la gauche).")),
        Md(T(
            en="""## 4. Play: the whole range

The full note drill, on all fifteen notes. Answer with a name, keys 1–7, or the keyboard. Missed and slow notes come back more often; at the end you see the ones to practise.""",
            es="""## 4. A jugar: todas las notas

La práctica completa, con las quince notas. Responde con un nombre, las teclas 1–7 o el teclado. Las notas que fallas o respondes despacio vuelven más seguido; al final verás cuáles practicar.""",
            fr="""## 4. On joue : toutes les notes

La lecture de notes complète, sur les quinze notes. Réponds avec un nom, les touches 1 à 7 ou le clavier. Les notes manquées ou lentes reviennent plus souvent ; à la fin, tu vois celles à travailler.""",
        )),
        Step("drill", "drill", ALL, questions=20, intro=T(
            en="All fifteen notes of the cards, from the ledger line below the staff to the two "
            "above it: name each one, or click its key in the right octave.",
            es="Las quince notas de las cartas, desde la línea adicional debajo del pentagrama "
            "hasta las dos de arriba: nombra cada una o haz clic en su tecla, en la octava "
            "correcta.",
            fr="Les quinze notes des cartes, de la ligne supplémentaire sous la portée aux deux "
            "lignes au-dessus : nomme chacune, ou clique sur sa touche dans la bonne octave.")),
    ),
    learned=(
        T(en="Solfège numbers octaves from Do3 (middle C); letters from C4: add one to go from "
          "solfège to letters.",
          es="El solfeo numera las octavas desde Do3 (el Do central); las letras desde C4: suma "
          "uno para pasar del solfeo a las letras.",
          fr="Le solfège numérote les octaves à partir de do3 (le do central), les lettres à partir de C4 : ajoute un pour passer du solfège aux lettres."),
        T(en="Re3 hangs just below the staff, Do3 sits on one ledger line; above, La4 is on one "
          "ledger line and Do5 on two.",
          es="Re3 cuelga justo debajo del pentagrama y Do3 está en una línea adicional; arriba, "
          "La4 está en una línea adicional y Do5 en dos.",
          fr="Ré3 est accroché juste sous la portée et do3 est sur une ligne supplémentaire ; au-dessus, la4 est sur une ligne supplémentaire et do5 sur deux."),
        T(en="Each octave on the keyboard starts on a Do, just left of two black keys.",
          es="Cada octava del teclado empieza en un Do, justo a la izquierda de dos teclas "
          "negras.",
          fr="Sur le clavier, chaque octave commence sur un do, juste à gauche de deux touches noires."),
    ),
    next=T(en="Next: lesson 3 puts your reading speed to the test in a game of Note Snap.",
           es="Después: la lección 3 pone a prueba tu velocidad de lectura en una partida de "
           "Mano a la nota.",
           fr="Ensuite : la leçon 3 met ta vitesse de lecture à l'épreuve dans une partie de Tape la note."),
    practise=("drill",),
)
