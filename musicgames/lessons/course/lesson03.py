"""Lesson 3 · Reading fast."""

from __future__ import annotations

from musicgames.lessons.plan import Md, Plan, Step, T
from musicgames.theory import CARD_NOTES

ALL = [n.solfege for n in CARD_NOTES]

PLAN = Plan(
    id="03-reading-fast",
    files=T(en="03-reading-fast.ipynb", es="03-leer-rapido.ipynb", fr="03-lire-vite.ipynb"),
    cells=(
        Md(T(
            en="""# Lesson 3 · Reading fast

**By the end of this lesson you will be able to:**

1. name the notes from Do3 to Do5 at sight, without counting lines — and know your own reading speed;
2. follow the call cycle **Do Re Mi Fa Sol La Si** and tell at once whether a card matches the name called (the octave does not matter);
3. play a short game of **Note Snap** against a beginner computer player.""",
            es="""# Lección 3 · Leer rápido

**Al terminar esta lección podrás:**

1. nombrar las notas de Do3 a Do5 de un vistazo, sin contar líneas, y conocer tu propia velocidad de lectura;
2. seguir el ciclo de nombres **Do Re Mi Fa Sol La Si** y saber enseguida si una carta coincide con el nombre que se dijo (la octava no importa);
3. jugar una partida corta de **Mano a la nota** contra un jugador de la computadora principiante.""",
            fr="""# Leçon 3 · Lire vite

**À la fin de cette leçon, tu sauras :**

1. nommer les notes de do3 à do5 d'un coup d'œil, sans compter les lignes, et connaître ta propre vitesse de lecture ;
2. suivre le cycle des noms **do ré mi fa sol la si** et dire tout de suite si une carte correspond au nom annoncé (l'octave ne compte pas) ;
3. jouer une courte partie de **Tape la note** contre un joueur débutant de l'ordinateur.""",
        )),
        Md(T(
            en="""## 1. From counting to seeing

At first we find a note by counting lines from the Sol clef. Fluent readers do not count: they *see* Mi3 (E4) on the bottom line the way you see a word. The way there is short, frequent practice against the clock — and the drill measures you: it times every answer, from the moment the note appears to your click or key press.

Good landmarks to start from: **Sol3** (G4) on the 2nd line, where the clef curls; **Do3** (middle C) on the ledger line below; **Do4** (C5) in the 3rd space; **Do5** (C6) on two ledger lines above.""",
            es="""## 1. De contar a ver

Al principio encontramos una nota contando líneas desde la clave de sol. Quien lee con soltura no cuenta: *ve* Mi3 en la línea de abajo como ves una palabra. El camino es practicar poco y seguido, contra el reloj; la práctica te mide: cronometra cada respuesta, desde que aparece la nota hasta tu clic o tu tecla.

Buenos puntos de referencia para empezar: **Sol3** en la 2.ª línea, donde se enrosca la clave; **Do3** (el Do central) en la línea adicional de abajo; **Do4** en el 3.er espacio; **Do5** en dos líneas adicionales arriba.""",
            fr="""## 1. De compter à voir

Au début, on trouve une note en comptant les lignes depuis la clé de sol. Celui qui lit couramment ne compte pas : il *voit* mi3 sur la ligne du bas comme tu vois un mot. Le chemin, c'est de s'entraîner souvent et peu à la fois, contre la montre ; la lecture de notes te mesure : elle chronomètre chaque réponse, du moment où la note apparaît jusqu'à ton clic ou ta touche.

De bons repères pour commencer : **sol3** sur la 2e ligne, là où s'enroule la clé ; **do3** (le do central) sur la ligne supplémentaire du bas ; **do4** dans le 3e interligne ; **do5** sur deux lignes supplémentaires en haut.""",
        )),
        Step("landmarks", "staff", ["Do3", "Sol3", "Do4", "Do5"], labels=True),
        Md(T(
            en="""### Exercise 1 · Warm up against the clock
Twenty notes. Answer with keys **1–7** (1 = Do/C … 7 = Si/B) — faster than the mouse. Your time is in the summary at the end: under 2 seconds is a good start, under 1 second is Note Snap speed. Missed and slow notes come back more often.""",
            es="""### Ejercicio 1 · Calentamiento contra el reloj
Veinte notas. Responde con las teclas **1–7** (1 = Do … 7 = Si): es más rápido que el mouse. Tu tiempo aparece en el resumen del final: menos de 2 segundos es un buen comienzo; menos de 1 segundo es la velocidad de Mano a la nota. Las notas que fallas o respondes despacio vuelven más seguido.""",
            fr="""### Exercice 1 · Échauffement contre la montre
Vingt notes. Réponds avec les touches **1 à 7** (1 = do … 7 = si) : c'est plus rapide que la souris. Ton temps s'affiche dans le bilan à la fin : moins de 2 secondes, c'est un bon début ; moins d'une seconde, c'est la vitesse de Tape la note. Les notes manquées ou lentes reviennent plus souvent.""",
        )),
        Step("warm-up", "drill", ALL, questions=20, answer_with=["names"], intro=T(
            en="A warm-up for Note Snap: twenty notes from the whole range, answered with keys "
            "1–7 only. Every answer is timed: aim for under 2 seconds, then under 1.",
            es="Calentamiento para Mano a la nota: veinte notas de todo el registro, que "
            "respondes solo con las teclas 1–7. Cada respuesta se cronometra: busca bajar de 2 "
            "segundos y luego de 1.",
            fr="Échauffement pour Tape la note : vingt notes de toute l'étendue, à nommer avec "
            "les touches 1 à 7 seulement. Chaque réponse est chronométrée : vise moins de "
            "2 secondes, puis moins d'une.")),
        Md(T(
            en="""## 2. Note Snap: the call cycle

In Note Snap each player in turn flips a card onto the centre pile and **calls the next name** of the cycle: Do, Re, Mi, Fa, Sol, La, Si, then Do again. Each round starts with Do. (In the game the names are called for you.)

### Exercise 2 · What comes next?""",
            es="""## 2. Mano a la nota: el ciclo de nombres

En Mano a la nota cada jugador, en su turno, voltea una carta sobre las cartas comunes del centro y **dice el nombre siguiente** del ciclo: Do, Re, Mi, Fa, Sol, La, Si, y otra vez Do. Cada ronda empieza con Do. (En el juego, la computadora dice los nombres por ti.)

### Ejercicio 2 · ¿Qué sigue?""",
            fr="""## 2. Tape la note : le cycle des noms

Dans Tape la note, chaque joueur à son tour retourne une carte sur le tas du centre et **annonce le nom suivant** du cycle : do, ré, mi, fa, sol, la, si, puis de nouveau do. Chaque manche commence par do. (Dans le jeu, l'ordinateur annonce les noms pour toi.)

### Exercice 2 · Quel nom vient ensuite ?""",
        )),
        Step("call-cycle", "call_cycle", ["Sol", "Si", "Mi", "Do", "La"]),
        Md(T(
            en="""## 3. Match or not?

When the card turned up **is** the name just called — in any octave: Do3, Do4 and Do5 all match *Do* — everybody puts a hand on it, and the **last** hand takes the whole centre pile. Put your hand on a card that is *not* a match and you take the pile too. So: read fast, and only slap when you are sure.

### Exercise 3 · Slap or hands still?""",
            es="""## 3. ¿Coincide o no?

Cuando la carta volteada **es** el nombre que se acaba de decir —en cualquier octava: Do3, Do4 y Do5 coinciden con *Do*— todos ponen la mano encima, y la **última** mano se come todas las cartas comunes. Si pones la mano sobre una carta que *no* coincide, también te las comes. Así que lee rápido y pon la mano solo cuando estés seguro.

### Ejercicio 3 · ¿Mano o manos quietas?""",
            fr="""## 3. Ça correspond ou pas ?

Quand la carte retournée **est** le nom qu'on vient d'annoncer — dans n'importe quelle octave : do3, do4 et do5 correspondent tous à *do* —, tout le monde tape dessus, et la **dernière** main ramasse tout le tas du centre. Si tu tapes sur une carte qui *ne* correspond *pas*, tu ramasses le tas aussi. Donc : lis vite, et ne tape que quand tu es sûr.

### Exercice 3 · Taper ou ne pas bouger ?""",
        )),
        Step("match", "match_or_not",
             [("Re", "Re4"), ("Fa", "Sol3"), ("Do", "Do5"), ("La", "La3"), ("Mi", "Fa4"),
              ("Si", "Si3")]),
        Md(T(en="### Exercise 4 · Who takes the pile?", es="### Ejercicio 4 · ¿Quién se las come?", fr="### Exercice 4 · Qui ramasse le tas ?")),
        Step(
            "pile",
            "choice",
            T(en="A card matches the call and everybody slaps it. Who takes the centre pile?",
              es="Una carta coincide con el nombre que se dijo y todos ponen la mano. ¿Quién se come "
              "las cartas comunes?",
              fr="Une carte correspond au nom annoncé et tout le monde tape dessus. Qui ramasse le tas du centre ?"),
            [T(en="The first to slap", es="La primera mano", fr="La première main"), T(en="The last to slap", es="La última mano", fr="La dernière main"),
             T(en="Nobody: the pile stays", es="Nadie: se quedan en el centro", fr="Personne : le tas reste")],
            answer=1,
            explain=T(
                en="The last hand takes the pile: a slow reader collects cards, and the aim is "
                "to get rid of yours.",
                es="La última mano se come las cartas comunes: quien lee despacio junta cartas, y "
                "el objetivo es quedarse sin ninguna.",
                fr="La dernière main ramasse le tas : qui lit lentement accumule les cartes, et le but est de se débarrasser des siennes.",
            ),
            why=[
                T(en="Being first is good: the first hand is safe.",
                  es="Ser la primera mano es bueno: esa mano está a salvo.",
                  fr="Être le premier, c'est bien : la première main ne risque rien."),
                T(en="", es="", fr=""),
                T(en="Someone always takes the pile after a match.",
                  es="Después de una coincidencia, alguien siempre se come las cartas.",
                  fr="Après une correspondance, quelqu'un ramasse toujours le tas."),
            ],
            title=T(en="Exercise 4 · Who takes the pile?", es="Ejercicio 4 · ¿Quién se las come?", fr="Exercice 4 · Qui ramasse le tas ?"),
        ),
        Md(T(
            en="""## 4. Play: a short game of Note Snap against a beginner

You and a beginner computer player. **Click the table first**, then: **Enter** flips your card when it is your turn, **Space** (or a click on the card) slaps. The names are called for you. Win by having no cards left. This short game ends when someone has no cards left, when someone has 40 cards in their hand, or after 40 cards have been flipped: then the player with fewer cards wins. **Guide card** shows every note with its name if you need it.""",
            es="""## 4. A jugar: una partida corta de Mano a la nota contra un principiante

Tú y un jugador de la computadora principiante. **Primero haz clic en la mesa**; luego: **Enter** voltea tu carta cuando es tu turno y la **barra espaciadora** (o un clic en la carta) pone la mano. La computadora dice los nombres por ti. Ganas si te quedas sin cartas. Esta partida corta termina cuando alguien se queda sin cartas, cuando alguien tiene 40 cartas en la mano, o después de voltear 40 cartas: entonces gana quien tenga menos. La **carta guía** muestra todas las notas con su nombre, si la necesitas.""",
            fr="""## 4. On joue : une courte partie de Tape la note contre un débutant

Toi et un joueur débutant de l'ordinateur. **Clique d'abord sur la table**, puis : **Entrée** retourne ta carte quand c'est ton tour, la **barre d'espace** (ou un clic sur la carte) tape. L'ordinateur annonce les noms pour toi. Tu gagnes quand tu n'as plus de cartes. Cette courte partie se termine quand quelqu'un n'a plus de cartes, quand quelqu'un a 40 cartes en main, ou après 40 cartes retournées : le joueur qui a le moins de cartes gagne alors. La **carte guide** montre toutes les notes avec leur nom, si tu en as besoin.""",
        )),
        Step("note-snap", "note_snap", people=1, computers=1, level="beginner", card_limit=40),
    ),
    learned=(
        T(en="Landmarks make reading fast: Sol3 on the 2nd line, Do3 below, Do4 in the 3rd space, "
          "Do5 above.",
          es="Los puntos de referencia hacen rápida la lectura: Sol3 en la 2.ª línea, Do3 abajo, "
          "Do4 en el 3.er espacio, Do5 arriba.",
          fr="Les repères rendent la lecture rapide : sol3 sur la 2e ligne, do3 en dessous, do4 dans le 3e interligne, do5 au-dessus."),
        T(en="The call cycle goes Do Re Mi Fa Sol La Si, then Do again.",
          es="El ciclo de nombres es Do Re Mi Fa Sol La Si, y otra vez Do.",
          fr="Le cycle des noms est do ré mi fa sol la si, puis de nouveau do."),
        T(en="A card matches when its name is the name called, in any octave; the last hand "
          "takes the pile.",
          es="Una carta coincide cuando su nombre es el que se dijo, en cualquier octava; la "
          "última mano se come las cartas comunes.",
          fr="Une carte correspond quand son nom est le nom annoncé, dans n'importe quelle octave ; la dernière main ramasse le tas."),
    ),
    next=T(en="Next: lesson 4 adds the black keys — sharps and flats.",
           es="Después: la lección 4 agrega las teclas negras: sostenidos y bemoles.",
           fr="Ensuite : la leçon 4 ajoute les touches noires, les dièses et les bémols."),
    practise=("drill",),
)
