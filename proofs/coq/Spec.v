(** * The specification: subsets, weight, value, and OPT as a maximum over all subsets.

    Items are [(w, v)] with integer weights [w : nat] (the quantized units of
    SPEC 2.1) and exact integer values [v : Z] (the scaled runtimes of
    [integer_runtimes], SPEC 3.1). A subset of a list of items is a mask: a list
    of booleans of the same length. [OPT items C] is the largest value of a
    subset weighing at most [C], taken over all [2 ^ n] masks (no DP). Index
    selections (lists of distinct indices, as the solvers return) are tied to
    masks at the end of this file. *)

From Coq Require Import List Arith ZArith Lia.
Import ListNotations.

Notation item := (nat * Z)%type.

Fixpoint pick (items : list item) (m : list bool) : list item :=
  match items, m with
  | x :: xs, b :: bs => if b then x :: pick xs bs else pick xs bs
  | _, _ => []
  end.

Fixpoint wsum (l : list item) : nat :=
  match l with [] => 0 | x :: xs => fst x + wsum xs end.

Fixpoint vsum (l : list item) : Z :=
  match l with [] => 0%Z | x :: xs => (snd x + vsum xs)%Z end.

Definition weight (items : list item) (m : list bool) : nat := wsum (pick items m).
Definition value (items : list item) (m : list bool) : Z := vsum (pick items m).

Definition feasible (items : list item) (C : nat) (m : list bool) : Prop :=
  length m = length items /\ weight items m <= C.

Fixpoint masks (n : nat) : list (list bool) :=
  match n with
  | 0 => [[]]
  | S k => map (cons false) (masks k) ++ map (cons true) (masks k)
  end.

Definition OPT (items : list item) (C : nat) : Z :=
  fold_right Z.max 0%Z
    (map (value items) (filter (fun m => weight items m <=? C) (masks (length items)))).

(** [z] is the optimum of [(items, C)]: attained by a feasible mask, and no
    feasible mask does better. Every theorem below about [OPT] goes through
    [is_opt_OPT]. *)
Definition is_opt (items : list item) (C : nat) (z : Z) : Prop :=
  (exists m, feasible items C m /\ value items m = z) /\
  (forall m, feasible items C m -> (value items m <= z)%Z).

Lemma masks_spec : forall n m, In m (masks n) <-> length m = n.
Proof.
  induction n as [|n IH]; intros m; simpl.
  - split; [intros [<-|[]]; reflexivity | destruct m; simpl; [auto | discriminate]].
  - rewrite in_app_iff, !in_map_iff. split.
    + intros [[m' [<- H]]|[m' [<- H]]]; simpl; f_equal; apply IH; exact H.
    + destruct m as [|b m]; simpl; [discriminate|]. intros [= H].
      destruct b; [right|left]; exists m; split; auto; apply IH; exact H.
Qed.

Lemma fold_max_ge : forall l d x, In x l -> (x <= fold_right Z.max d l)%Z.
Proof.
  induction l as [|y l IH]; simpl; intros d x H; [contradiction|].
  destruct H as [<-|H]; [lia|]. specialize (IH d x H). lia.
Qed.

Lemma fold_max_in : forall l d, fold_right Z.max d l = d \/ In (fold_right Z.max d l) l.
Proof.
  induction l as [|y l IH]; simpl; intros d; [auto|].
  destruct (Z.max_spec y (fold_right Z.max d l)) as [[_ E]|[_ E]]; rewrite E; auto.
  destruct (IH d) as [H|H]; auto.
Qed.

Lemma pick_none : forall items, pick items (repeat false (length items)) = [].
Proof. induction items; simpl; auto. Qed.

Theorem OPT_upper : forall items C m, feasible items C m -> (value items m <= OPT items C)%Z.
Proof.
  intros items C m [Hl Hw]. unfold OPT. apply fold_max_ge, in_map, filter_In. split.
  - apply masks_spec; exact Hl.
  - apply Nat.leb_le; exact Hw.
Qed.

Theorem OPT_attained : forall items C, exists m, feasible items C m /\ value items m = OPT items C.
Proof.
  intros items C. unfold OPT.
  destruct (fold_max_in (map (value items) (filter (fun m => weight items m <=? C)
                            (masks (length items)))) 0%Z) as [H|H].
  - exists (repeat false (length items)). rewrite H. unfold feasible, weight, value.
    rewrite pick_none, repeat_length. simpl. split; [split|]; auto; lia.
  - apply in_map_iff in H. destruct H as [m [E H]]. apply filter_In in H. destruct H as [H1 H2].
    exists m. split; [split|]; auto.
    + apply masks_spec; exact H1.
    + apply Nat.leb_le; exact H2.
Qed.

Lemma is_opt_OPT : forall items C z, is_opt items C z <-> OPT items C = z.
Proof.
  intros items C z. split.
  - intros [[m [Hf Hv]] Hup]. apply Z.le_antisymm.
    + destruct (OPT_attained items C) as [m' [Hf' <-]]. apply Hup; exact Hf'.
    + rewrite <- Hv. apply OPT_upper; exact Hf.
  - intros <-. split; [apply OPT_attained | apply OPT_upper].
Qed.

(** ** Masks of a concatenation *)

Lemma pick_app : forall A B mA mB, length mA = length A ->
  pick (A ++ B) (mA ++ mB) = pick A mA ++ pick B mB.
Proof.
  induction A as [|x A IH]; intros B mA mB H; destruct mA as [|b mA]; simpl in *;
    try discriminate; auto.
  destruct b; [rewrite IH|apply IH]; auto.
Qed.

Lemma wsum_app : forall l l', wsum (l ++ l') = wsum l + wsum l'.
Proof. induction l; simpl; intros; try rewrite IHl; lia. Qed.

Lemma vsum_app : forall l l', vsum (l ++ l') = (vsum l + vsum l')%Z.
Proof. induction l; simpl; intros; try rewrite IHl; lia. Qed.

Lemma weight_app : forall A B mA mB, length mA = length A ->
  weight (A ++ B) (mA ++ mB) = weight A mA + weight B mB.
Proof. intros. unfold weight. rewrite pick_app, wsum_app; auto. Qed.

Lemma value_app : forall A B mA mB, length mA = length A ->
  value (A ++ B) (mA ++ mB) = (value A mA + value B mB)%Z.
Proof. intros. unfold value. rewrite pick_app, vsum_app; auto. Qed.

Lemma mask_split : forall (A B : list item) (m : list bool), length m = length A + length B ->
  exists mA mB, m = mA ++ mB /\ length mA = length A /\ length mB = length B.
Proof.
  intros A B m H. exists (firstn (length A) m), (skipn (length A) m).
  rewrite firstn_skipn, firstn_length, skipn_length. repeat split; lia.
Qed.

Lemma weight_le_wsum : forall items m, weight items m <= wsum items.
Proof.
  unfold weight. induction items as [|x xs IH]; destruct m as [|b m]; simpl; try lia.
  destruct b; simpl; specialize (IH m); lia.
Qed.

Lemma OPT_mono : forall items c c', c <= c' -> (OPT items c <= OPT items c')%Z.
Proof.
  intros items c c' H. destruct (OPT_attained items c) as [m [[Hl Hw] <-]].
  apply OPT_upper. split; auto; lia.
Qed.

(** ** Index selections

    A selection is a list of indices into [items]; it is valid when the indices
    are distinct and in range. Its weight and value are the sums over its
    indices. Every valid selection has a mask of the same weight and value,
    and conversely, so [OPT] is also the maximum over valid selections. *)

Definition no_item : item := (0%nat, 0%Z).

Definition sel_weight (items : list item) (s : list nat) : nat :=
  fold_right (fun i acc => fst (nth i items no_item) + acc) 0 s.

Definition sel_value (items : list item) (s : list nat) : Z :=
  fold_right (fun i acc => (snd (nth i items no_item) + acc)%Z) 0%Z s.

Definition valid_sel (n : nat) (s : list nat) : Prop := NoDup s /\ Forall (fun i => i < n) s.

Fixpoint sel_of_mask_from (k : nat) (m : list bool) : list nat :=
  match m with
  | [] => []
  | b :: bs => if b then k :: sel_of_mask_from (S k) bs else sel_of_mask_from (S k) bs
  end.

Definition sel_of_mask (m : list bool) : list nat := sel_of_mask_from 0 m.
