"""Lesson 5 · Chord tones."""

from __future__ import annotations

from musicgames.lessons.plan import Md, Plan, Step, T

PLAN = Plan(
    id="05-chord-tones",
    files=T(en="05-chord-tones.ipynb", es="05-notas-del-acorde.ipynb"),
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
        )),
        Md(T(
            en="""## 1. Three notes, every other step

A **triad** stacks three notes, each two steps above the one before: skip a note, take a note. Start on Do (C): skip Re, take **Mi**; skip Fa, take **Sol**. So the triad on Do is Do–Mi–Sol (C–E–G). The note it is built on is the **root**; the next is the **third** (three note names up: Do-Re-Mi); the top one is the **fifth** (five names up: Do-Re-Mi-Fa-Sol).

On the staff a triad looks like a snowman: all three notes on lines, or all in spaces.""",
            es="""## 1. Tres notas, un paso sí y uno no

Una **tríada** apila tres notas, cada una dos pasos encima de la anterior: saltas una nota, tomas una nota. Empieza en Do: saltas Re, tomas **Mi**; saltas Fa, tomas **Sol**. La tríada sobre Do es Do–Mi–Sol. La nota sobre la que se arma es la **fundamental**; la siguiente es la **tercera** (tres nombres hacia arriba: Do-Re-Mi); la de arriba es la **quinta** (cinco nombres hacia arriba: Do-Re-Mi-Fa-Sol).

En el pentagrama una tríada parece un muñeco de nieve: las tres notas en líneas, o las tres en espacios.""",
        )),
        Step("snowman", "staff", ["Do3", "Mi3", "Sol3", ("Do3", "Mi3", "Sol3")], labels=True),
        Md(T(
            en="On the keyboard we colour the tones: **red** for the root, **yellow** for the "
            "third, **blue** for the fifth. Every Do, Mi and Sol on the keyboard belongs to the "
            "chord — the octave does not matter:",
            es="En el teclado coloreamos las notas: **rojo** la fundamental, **amarillo** la "
            "tercera, **azul** la quinta. Cada Do, Mi y Sol del teclado pertenece al acorde; "
            "la octava no importa:",
        )),
        Step("do-major-keys", "keyboard", 2, chord="Do major"),
        Md(T(
            en="Here are five triads, measured in half steps (lesson 4): a **major third** is 4 "
            "half steps, a **minor third** 3, and a **perfect fifth** 7:",
            es="Aquí hay cinco tríadas, medidas en semitonos (lección 4): una **tercera mayor** "
            "tiene 4 semitonos, una **tercera menor** 3 y una **quinta justa** 7:",
        )),
        Step("triads-table", "triad_table",
             ["Do major", "Fa major", "Sol major", "Re minor", "La minor"]),
        Md(T(
            en="""### Exercise 1 · Root, third, fifth
Name the third of each triad: count up from the root, skipping one note name.""",
            es="""### Ejercicio 1 · Fundamental, tercera, quinta
Nombra la tercera de cada tríada: cuenta hacia arriba desde la fundamental, saltando un nombre.""",
        )),
        Step("thirds", "chord_tone",
             ["Do major", "Sol major", "Fa major", "Re minor", "La minor"], "third"),
        Md(T(
            en="""## 2. Major or minor? The third decides

Triads on the same root can sound bright (**major**) or dark (**minor**). The root and the fifth stay the same; only the third moves: 4 half steps above the root in a major triad, 3 in a minor one. Do major and Do minor, side by side:""",
            es="""## 2. ¿Mayor o menor? Decide la tercera

Las tríadas sobre la misma fundamental pueden sonar brillantes (**mayores**) u oscuras (**menores**). La fundamental y la quinta no cambian; solo se mueve la tercera: 4 semitonos arriba de la fundamental en una tríada mayor, 3 en una menor. Do mayor y Do menor, una al lado de la otra:""",
        )),
        Step("major-minor-staff", "staff", [("Do3", "Mi3", "Sol3"), ("Do3", "Mib3", "Sol3")]),
        Step("major-minor-keys", "keyboard", 2, chord=["Do major", "Do minor"]),
        Step("major-minor-table", "triad_table", ["Do major", "Do minor"]),
        Md(T(
            en="""### Exercise 2 · Major or minor?
Count the half steps from the root (red) up to the third (yellow): 4 for major, 3 for minor.""",
            es="""### Ejercicio 2 · ¿Mayor o menor?
Cuenta los semitonos desde la fundamental (roja) hasta la tercera (amarilla): 4 para mayor, 3 para menor.""",
        )),
        Step("quality", "chord_quality",
             ["Do major", "La minor", "Re major", "Sol major", "Mi minor", "Fa major"]),
        Md(T(
            en="""### Exercise 3 · By ear
Now without looking: press **Listen** and decide whether the chord sounds bright (major) or dark (minor). After your answer you see it, and why. (Switch the sound on in the settings at the top.)""",
            es="""### Ejercicio 3 · De oído
Ahora sin mirar: presiona **Escuchar** y decide si el acorde suena brillante (mayor) u oscuro (menor). Después de responder lo verás, y por qué. (Activa el sonido en los ajustes de arriba.)""",
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
        )),
        Step("ear-quiz", "quiz",
             ["Do major", "Do minor", "Sol major", "La minor", "Re major", "Re minor",
              "Fa major", "Mi minor"], mode="ear", questions=8),
        Md(T(
            en="""### Exercise 4 · The fifth
The fifth is two steps above the third — five note names above the root.""",
            es="""### Ejercicio 4 · La quinta
La quinta está dos pasos arriba de la tercera: cinco nombres arriba de la fundamental.""",
        )),
        Step("fifths", "chord_tone", ["Sol major", "Re minor", "Mi minor", "Fa major"], "fifth"),
        Md(T(
            en="""## 3. Find chord tones on the keyboard

A chord's tones can be played in any octave and any order — they are still Do, Mi and Sol. In the quiz below, click the three keys of the triad it names. Click a key again to take it back. You see at once which keys were right, with the triad coloured in.

### Exercise 5 · Click the tones""",
            es="""## 3. Encuentra las notas del acorde en el teclado

Las notas de un acorde se pueden tocar en cualquier octava y en cualquier orden: siguen siendo Do, Mi y Sol. En el cuestionario de abajo, haz clic en las tres teclas de la tríada que se nombra. Vuelve a hacer clic en una tecla para quitarla. Verás enseguida qué teclas eran correctas, con la tríada coloreada.

### Ejercicio 5 · Haz clic en las notas""",
        )),
        Step("find", "quiz", ["Do major", "Fa major", "Sol major", "La minor", "Re minor"],
             mode="find", questions=5),
        Md(T(
            en="""## 4. Play: the chord-tones quiz

Now the mixed quiz: sometimes it names a triad and you click its tones; sometimes it shows one on the staff and you pick its name (click, or press 1–4). Its chords use the sharps and flats of lesson 4. Chords you miss or answer slowly come back more often, and the summary at the end lists the ones to practise.""",
            es="""## 4. A jugar: el cuestionario de notas del acorde

Ahora el cuestionario mezclado: a veces nombra una tríada y haces clic en sus notas; a veces muestra una en el pentagrama y eliges su nombre (con un clic o con las teclas 1–4). Sus acordes usan los sostenidos y bemoles de la lección 4. Los acordes que fallas o respondes despacio vuelven más seguido, y el resumen del final dice cuáles practicar.""",
        )),
        Step("quiz", "quiz", mode="mixed", questions=12),
    ),
    learned=(
        T(en="A triad is root, third and fifth: every other note name (Do – Mi – Sol).",
          es="Una tríada es fundamental, tercera y quinta: un nombre sí y uno no (Do – Mi – Sol)."),
        T(en="Major: 4 half steps from the root to the third; minor: 3. The fifth is 7 in both.",
          es="Mayor: 4 semitonos de la fundamental a la tercera; menor: 3. La quinta tiene 7 en "
          "las dos."),
        T(en="A chord's tones count in any octave and any order.",
          es="Las notas de un acorde valen en cualquier octava y en cualquier orden."),
    ),
    next=T(en="Next: lesson 6 shows why chord tones matter in a game of Keyboard Duel.",
           es="Después: la lección 6 muestra por qué importan las notas del acorde en una "
           "partida de Duelo de teclados."),
    practise=("quiz",),
)
