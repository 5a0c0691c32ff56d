"""Lesson 6 · Chord tones in play."""

from __future__ import annotations

from musicgames.lessons.plan import Md, Plan, Step, T

PLAN = Plan(
    id="06-chord-tones-in-play",
    files=T(en="06-chord-tones-in-play.ipynb", es="06-notas-del-acorde-en-juego.ipynb", fr="06-les-notes-de-l-accord-en-jeu.ipynb"),
    cells=(
        Md(T(
            en="""# Lesson 6 · Chord tones in play

**By the end of this lesson you will be able to:**

1. explain why the root of a piano card is marked **fff**, the third **ff** and the fifth **f** in Keyboard Duel;
2. say what any key is worth, and what a token on it scores;
3. play a guided first game of **Keyboard Duel** against the computer player Casual.

Lessons 4 (sharps and flats) and 5 (chord tones) come first.""",
            es="""# Lección 6 · Las notas del acorde en juego

**Al terminar esta lección podrás:**

1. explicar por qué en el Duelo de teclados la fundamental de una carta de piano está marcada **fff**, la tercera **ff** y la quinta **f**;
2. decir cuánto vale cada tecla y cuánto suma una ficha sobre ella;
3. jugar una primera partida guiada del **Duelo de teclados** contra Tranquilo, un jugador de la computadora que juega sin apuro.

Antes van las lecciones 4 (sostenidos y bemoles) y 5 (notas del acorde).""",
            fr="""# Leçon 6 · Les notes de l'accord en jeu

**À la fin de cette leçon, tu sauras :**

1. expliquer pourquoi, dans le Duel de claviers, la fondamentale d'une carte de piano est marquée **fff**, la tierce **ff** et la quinte **f** ;
2. dire ce que vaut chaque touche, et ce que rapporte un jeton posé dessus ;
3. jouer une première partie guidée de **Duel de claviers** contre Tranquille, un joueur de l'ordinateur qui joue sans se presser.

Les leçons 4 (dièses et bémols) et 5 (les notes de l'accord) viennent avant.""",
        )),
        Md(T(
            en="""## 1. The board: two piano cards

Keyboard Duel is played on two **piano cards** side by side — two octaves, 24 keys. Each card shows one major or minor triad: its chord tones are coloured, as in lesson 5 (**red** root, **yellow** third, **blue** fifth), and marked with dynamics:

| tone | mark | worth |
|---|---|---|
| root | **fff** | ×3 |
| third | **ff** | ×2 |
| fifth | **f** | ×1 |
| any other key | — | ×1 |

Why this order? The **root** names and grounds the chord: it is the tone everything else is measured from, so it is worth most. The **third** decides major or minor — the chord's colour — so it comes next. The **fifth** is the same in major and minor (7 half steps above the root); it fills the chord but tells you least about it.""",
            es="""## 1. El tablero: dos cartas de piano

El Duelo de teclados se juega sobre dos **cartas de piano**, una al lado de la otra: dos octavas, 24 teclas. Cada carta muestra una tríada mayor o menor: sus notas están coloreadas como en la lección 5 (fundamental **roja**, tercera **amarilla**, quinta **azul**) y marcadas con matices:

| nota | marca | vale |
|---|---|---|
| fundamental | **fff** | ×3 |
| tercera | **ff** | ×2 |
| quinta | **f** | ×1 |
| cualquier otra tecla | — | ×1 |

¿Por qué este orden? La **fundamental** nombra el acorde y lo sostiene: todo se mide desde ella, así que vale más. La **tercera** decide si es mayor o menor —el color del acorde—, así que va después. La **quinta** es igual en mayor y en menor (7 semitonos arriba de la fundamental): completa el acorde, pero es la que menos dice de él.""",
            fr="""## 1. Le plateau : deux cartes de piano

Le Duel de claviers se joue sur deux **cartes de piano** côte à côte : deux octaves, 24 touches. Chaque carte montre un accord parfait majeur ou mineur : ses notes sont en couleur, comme dans la leçon 5 (fondamentale **rouge**, tierce **jaune**, quinte **bleue**), et marqués de nuances :

| note | marque | valeur |
|---|---|---|
| fondamentale | **fff** | ×3 |
| tierce | **ff** | ×2 |
| quinte | **f** | ×1 |
| toute autre touche | — | ×1 |

Pourquoi cet ordre ? La **fondamentale** nomme l'accord et lui sert d'assise : tout se mesure à partir d'elle, c'est donc elle qui vaut le plus. La **tierce** décide si l'accord est majeur ou mineur — sa couleur —, elle vient donc ensuite. La **quinte** est la même en majeur et en mineur (7 demi-tons au-dessus de la fondamentale) : elle remplit l'accord mais c'est elle qui en dit le moins.""",
        )),
        Step("cards", "piano_cards", "Re major", "La minor"),
        Md(T(
            en="""### Exercise 1 · Where is fff?
The fff key of a card is its root. Which is it?""",
            es="""### Ejercicio 1 · ¿Dónde está fff?
La tecla fff de una carta es su fundamental. ¿Cuál es?""",
            fr="""### Exercice 1 · Où est fff ?
La touche fff d'une carte est sa fondamentale. Laquelle est-ce ?""",
        )),
        Step("roots", "chord_tone", ["Re major", "La minor", "Sol major", "Mi minor"], "root"),
        Md(T(
            en="""## 2. What a key is worth

A key's **multiplier** is the number of f's on it; a key with no mark counts 1. So the fifth (f) is worth no more than a plain key — but holding **all three** coloured keys of a card gives 1 bonus point.

### Exercise 2 · Read the marks""",
            es="""## 2. Cuánto vale una tecla

El **multiplicador** de una tecla es el número de letras f que tiene; una tecla sin marca vale 1. Así que la quinta (f) no vale más que una tecla sin marca, pero tener **las tres** teclas coloreadas de una carta da 1 punto extra.

### Ejercicio 2 · Lee las marcas""",
            fr="""## 2. Ce que vaut une touche

Le **multiplicateur** d'une touche est le nombre de f qu'elle porte ; une touche sans marque compte 1. La quinte (f) ne vaut donc pas plus qu'une touche sans marque, mais tenir **les trois** touches en couleur d'une carte donne 1 point de bonus.

### Exercice 2 · Lis les marques""",
        )),
        Step("worth", "key_worth", "Re major", ["Re3", "Fa#3", "La3", "Mi3"]),
        Md(T(
            en="""## 3. What a token scores

Each player has five **Dice Tokens**. You place a token by playing cards of one letter: its **power** is the number of cards (up to 6). At the end of a round each token on the board scores **power × the multiplier of its key** — the gold number the game shows on it. A power-2 token on a root (fff) scores 6; on a plain key, 2.

### Exercise 3 · Count the points""",
            es="""## 3. Cuánto suma una ficha

Cada jugador tiene cinco **fichas de dados**. Colocas una ficha jugando cartas de un mismo nombre de nota: su **potencia** es el número de cartas (hasta 6). Al final de cada ronda, cada ficha del tablero suma **potencia × el multiplicador de su tecla**: el número dorado que el juego muestra sobre ella. Una ficha de potencia 2 sobre una fundamental (fff) suma 6; sobre una tecla sin marca, 2.

### Ejercicio 3 · Cuenta los puntos""",
            fr="""## 3. Ce que rapporte un jeton

Chaque joueur a cinq **jetons**. Tu poses un jeton en jouant des cartes d'un même nom de note : sa **puissance** est le nombre de cartes (jusqu'à 6). À la fin d'une manche, chaque jeton sur le plateau rapporte **puissance × le multiplicateur de sa touche** : le nombre doré que le jeu affiche dessus. Un jeton de puissance 2 sur une fondamentale (fff) rapporte 6 ; sur une touche sans marque, 2.

### Exercice 3 · Compte les points""",
        )),
        Step("score", "token_score",
             [("Re major", "Re3", 2), ("La minor", "Do3", 3), ("Sol major", "Re3", 4),
              ("Mi minor", "Mi3", 1)]),
        Md(T(
            en="""## 4. Play: a guided first game against Casual

You play **White** and move first; Casual is a relaxed computer player. A game has three rounds; the higher total wins.

**Your turn:** take at least one action — **Place** and/or **Move**, at most one of each — then press **End turn**.

* **Place:** click cards of one letter in your hand (Wilds join any letter); the keys they may go to light up; click one.
* **Move:** click one of your tokens, then a number card (1, 2, 3) and a direction.
* **Duel:** landing on the opponent's key starts a duel: both roll dice, then add cards. The attacker wins ties.

**A plan for your first game:** look at the two cards and find their **roots** — the fff keys. Put your strongest token (most cards of one letter) on a root; then try to hold the third and the fifth of the same card too, for the bonus point. **Hint** shows what a strong player would do; **Take back** undoes your last move, until dice are rolled or cards drawn.""",
            es="""## 4. A jugar: una primera partida guiada contra Tranquilo

Juegas con **las blancas** y empiezas tú; **Tranquilo** es un jugador de la computadora que juega sin apuro. Una partida tiene tres rondas; gana el total más alto.

**Tu turno:** haz al menos una acción —**colocar** y/o **mover**, como mucho una de cada una— y luego presiona **Terminar turno**.

* **Colocar:** haz clic en cartas de tu mano con el mismo nombre de nota (los comodines valen para cualquiera); se iluminan las teclas donde puede ir la ficha; haz clic en una.
* **Mover:** haz clic en una de tus fichas, luego en una carta de número (1, 2, 3) y en una dirección.
* **Duelo:** si llegas a una tecla del rival empieza un duelo: los dos tiran los dados y después suman cartas. En caso de empate gana quien ataca.

**Un plan para tu primera partida:** mira las dos cartas y busca sus **fundamentales**, las teclas fff. Pon tu ficha más fuerte (la de más cartas de un mismo nombre) sobre una fundamental; luego intenta quedarte también con la tercera y la quinta de la misma carta, para el punto extra. **Pista** muestra lo que haría un buen jugador; **Deshacer** anula tu última jugada, hasta que se tiran los dados o se roban cartas.""",
            fr="""## 4. On joue : une première partie guidée contre Tranquille

Tu joues les **Blancs** et tu commences ; Tranquille est un joueur de l'ordinateur qui joue sans se presser. Une partie compte trois manches ; le plus haut total gagne.

**Ton tour :** fais au moins une action — **poser** et/ou **déplacer**, au plus une de chaque —, puis appuie sur **Finir le tour**.

* **Poser :** clique sur des cartes de ta main d'un même nom de note (les jokers vont avec n'importe lequel) ; les touches où le jeton peut aller s'allument ; clique sur l'une d'elles.
* **Déplacer :** clique sur l'un de tes jetons, puis sur une carte nombre (1, 2, 3) et sur une direction.
* **Duel :** arriver sur une touche de l'adversaire lance un duel : chacun lance les dés, puis ajoute des cartes. En cas d'égalité, l'attaquant gagne.

**Un plan pour ta première partie :** regarde les deux cartes et trouve leurs **fondamentales**, les touches fff. Pose ton jeton le plus fort (celui qui a le plus de cartes d'un même nom) sur une fondamentale ; essaie ensuite de tenir aussi la tierce et la quinte de la même carte, pour le point de bonus. **Indice** montre ce que ferait un bon joueur ; **Annuler le coup** défait ton dernier coup, tant qu'on n'a pas lancé les dés ni pioché de cartes.""",
        )),
        Step("duel", "keyboard_duel", "casual"),
    ),
    learned=(
        T(en="On a piano card the root is fff (×3), the third ff (×2), the fifth f (×1), any "
          "other key ×1.",
          es="En una carta de piano la fundamental es fff (×3), la tercera ff (×2), la quinta f "
          "(×1) y cualquier otra tecla ×1.",
          fr="Sur une carte de piano, la fondamentale est fff (×3), la tierce ff (×2), la quinte f (×1), toute autre touche ×1."),
        T(en="A token scores its power × its key's multiplier; all three chord tones of a card "
          "give a bonus point.",
          es="Una ficha suma su potencia × el multiplicador de su tecla; las tres notas del acorde "
          "de una carta dan un punto extra.",
          fr="Un jeton rapporte sa puissance × le multiplicateur de sa touche ; les trois notes de l'accord d'une carte donnent un point de bonus."),
        T(en="You can now read the staff from Do3 to Do5, name the black keys, build triads and "
          "use chord tones to win.",
          es="Ya sabes leer el pentagrama de Do3 a Do5, nombrar las teclas negras, armar "
          "tríadas y usar las notas del acorde para ganar.",
          fr="Tu sais maintenant lire la portée de do3 à do5, nommer les touches noires, construire des accords parfaits et te servir des notes de l'accord pour gagner."),
    ),
    next=T(en="Keep practising with the drill, the quiz and both games.",
           es="Sigue practicando con la práctica de notas, el cuestionario y los dos juegos.",
           fr="Continue à t'entraîner avec la lecture de notes, le quiz des notes de l'accord et les deux jeux."),
    practise=("quiz", "drill"),
)
