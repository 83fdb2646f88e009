/* sonde's BPF code for D's llquantize() (ten layouts), quantize() and
 * stddev() against out/dtfmt.c, value by value: the globals are set in
 * the first clauses, so the verifier knows none of them and every path
 * of the bucket and square code runs.  The expected output was printed
 * by a C program through dtf_llquant_index(), dtf_quant_index() and
 * dtf_stddev_add() (the module's own mirror of dtrace-utils), not by
 * sonde dtrace.  Clauses stay under the kernel's 64 maps a program. */
#pragma D option quiet
BEGIN
{
	v0 = 0;
	v1 = 1;
	v2 = -1;
	v3 = 2;
	v4 = -2;
	v5 = 3;
	v6 = -3;
	v7 = 9;
	v8 = 10;
	v9 = -10;
	v10 = 99;
	v11 = 100;
	v12 = 101;
	v13 = -101;
	v14 = 4611686018427387904;
	v15 = -4611686018427387904;
	v16 = 9223372036854775807;
	v17 = -9223372036854775807;
	v18 = 665496014308;
	v19 = -9;
	v20 = -2995;
	v21 = 10065165;
	v22 = 4335396123184015;
	v23 = -4460437634650831;
	v24 = 101;
	v25 = -25008886;
	v26 = 75919;
	v27 = -20216;
	v28 = -1728987;
	v29 = 12495588;
}

BEGIN
{
	@l0 = llquantize(v0, 10, 0, 3, 10);
	printa(@l0);
	@l1 = llquantize(v1, 10, 0, 3, 10);
	printa(@l1);
	@l2 = llquantize(v2, 10, 0, 3, 10);
	printa(@l2);
	@l3 = llquantize(v3, 10, 0, 3, 10);
	printa(@l3);
	@l4 = llquantize(v4, 10, 0, 3, 10);
	printa(@l4);
	@l5 = llquantize(v5, 10, 0, 3, 10);
	printa(@l5);
	@l6 = llquantize(v6, 10, 0, 3, 10);
	printa(@l6);
	@l7 = llquantize(v7, 10, 0, 3, 10);
	printa(@l7);
	@l8 = llquantize(v8, 10, 0, 3, 10);
	printa(@l8);
	@l9 = llquantize(v9, 10, 0, 3, 10);
	printa(@l9);
	@l10 = llquantize(v10, 10, 0, 3, 10);
	printa(@l10);
	@l11 = llquantize(v11, 10, 0, 3, 10);
	printa(@l11);
}

BEGIN
{
	@l12 = llquantize(v12, 10, 0, 3, 10);
	printa(@l12);
	@l13 = llquantize(v13, 10, 0, 3, 10);
	printa(@l13);
	@l14 = llquantize(v14, 10, 0, 3, 10);
	printa(@l14);
	@l15 = llquantize(v15, 10, 0, 3, 10);
	printa(@l15);
	@l16 = llquantize(v16, 10, 0, 3, 10);
	printa(@l16);
	@l17 = llquantize(v17, 10, 0, 3, 10);
	printa(@l17);
	@l18 = llquantize(v18, 10, 0, 3, 10);
	printa(@l18);
	@l19 = llquantize(v19, 10, 0, 3, 10);
	printa(@l19);
	@l20 = llquantize(v20, 10, 0, 3, 10);
	printa(@l20);
	@l21 = llquantize(v21, 10, 0, 3, 10);
	printa(@l21);
	@l22 = llquantize(v22, 10, 0, 3, 10);
	printa(@l22);
	@l23 = llquantize(v23, 10, 0, 3, 10);
	printa(@l23);
}

BEGIN
{
	@l24 = llquantize(v24, 10, 0, 3, 10);
	printa(@l24);
	@l25 = llquantize(v25, 10, 0, 3, 10);
	printa(@l25);
	@l26 = llquantize(v26, 10, 0, 3, 10);
	printa(@l26);
	@l27 = llquantize(v27, 10, 0, 3, 10);
	printa(@l27);
	@l28 = llquantize(v28, 10, 0, 3, 10);
	printa(@l28);
	@l29 = llquantize(v29, 10, 0, 3, 10);
	printa(@l29);
}
BEGIN
{
	@l30 = llquantize(v0, 4, 0, 1, 8);
	printa(@l30);
	@l31 = llquantize(v1, 4, 0, 1, 8);
	printa(@l31);
	@l32 = llquantize(v2, 4, 0, 1, 8);
	printa(@l32);
	@l33 = llquantize(v3, 4, 0, 1, 8);
	printa(@l33);
	@l34 = llquantize(v4, 4, 0, 1, 8);
	printa(@l34);
	@l35 = llquantize(v5, 4, 0, 1, 8);
	printa(@l35);
}

BEGIN
{
	@l36 = llquantize(v6, 4, 0, 1, 8);
	printa(@l36);
	@l37 = llquantize(v7, 4, 0, 1, 8);
	printa(@l37);
	@l38 = llquantize(v8, 4, 0, 1, 8);
	printa(@l38);
	@l39 = llquantize(v9, 4, 0, 1, 8);
	printa(@l39);
	@l40 = llquantize(v10, 4, 0, 1, 8);
	printa(@l40);
	@l41 = llquantize(v11, 4, 0, 1, 8);
	printa(@l41);
	@l42 = llquantize(v12, 4, 0, 1, 8);
	printa(@l42);
	@l43 = llquantize(v13, 4, 0, 1, 8);
	printa(@l43);
	@l44 = llquantize(v14, 4, 0, 1, 8);
	printa(@l44);
	@l45 = llquantize(v15, 4, 0, 1, 8);
	printa(@l45);
	@l46 = llquantize(v16, 4, 0, 1, 8);
	printa(@l46);
	@l47 = llquantize(v17, 4, 0, 1, 8);
	printa(@l47);
}

BEGIN
{
	@l48 = llquantize(v18, 4, 0, 1, 8);
	printa(@l48);
	@l49 = llquantize(v19, 4, 0, 1, 8);
	printa(@l49);
	@l50 = llquantize(v20, 4, 0, 1, 8);
	printa(@l50);
	@l51 = llquantize(v21, 4, 0, 1, 8);
	printa(@l51);
	@l52 = llquantize(v22, 4, 0, 1, 8);
	printa(@l52);
	@l53 = llquantize(v23, 4, 0, 1, 8);
	printa(@l53);
	@l54 = llquantize(v24, 4, 0, 1, 8);
	printa(@l54);
	@l55 = llquantize(v25, 4, 0, 1, 8);
	printa(@l55);
	@l56 = llquantize(v26, 4, 0, 1, 8);
	printa(@l56);
	@l57 = llquantize(v27, 4, 0, 1, 8);
	printa(@l57);
	@l58 = llquantize(v28, 4, 0, 1, 8);
	printa(@l58);
	@l59 = llquantize(v29, 4, 0, 1, 8);
	printa(@l59);
}

BEGIN
{
	@l60 = llquantize(v0, 2, 0, 5, 2);
	printa(@l60);
	@l61 = llquantize(v1, 2, 0, 5, 2);
	printa(@l61);
	@l62 = llquantize(v2, 2, 0, 5, 2);
	printa(@l62);
	@l63 = llquantize(v3, 2, 0, 5, 2);
	printa(@l63);
	@l64 = llquantize(v4, 2, 0, 5, 2);
	printa(@l64);
	@l65 = llquantize(v5, 2, 0, 5, 2);
	printa(@l65);
	@l66 = llquantize(v6, 2, 0, 5, 2);
	printa(@l66);
	@l67 = llquantize(v7, 2, 0, 5, 2);
	printa(@l67);
	@l68 = llquantize(v8, 2, 0, 5, 2);
	printa(@l68);
	@l69 = llquantize(v9, 2, 0, 5, 2);
	printa(@l69);
	@l70 = llquantize(v10, 2, 0, 5, 2);
	printa(@l70);
	@l71 = llquantize(v11, 2, 0, 5, 2);
	printa(@l71);
}

BEGIN
{
	@l72 = llquantize(v12, 2, 0, 5, 2);
	printa(@l72);
	@l73 = llquantize(v13, 2, 0, 5, 2);
	printa(@l73);
	@l74 = llquantize(v14, 2, 0, 5, 2);
	printa(@l74);
	@l75 = llquantize(v15, 2, 0, 5, 2);
	printa(@l75);
	@l76 = llquantize(v16, 2, 0, 5, 2);
	printa(@l76);
	@l77 = llquantize(v17, 2, 0, 5, 2);
	printa(@l77);
	@l78 = llquantize(v18, 2, 0, 5, 2);
	printa(@l78);
	@l79 = llquantize(v19, 2, 0, 5, 2);
	printa(@l79);
	@l80 = llquantize(v20, 2, 0, 5, 2);
	printa(@l80);
	@l81 = llquantize(v21, 2, 0, 5, 2);
	printa(@l81);
	@l82 = llquantize(v22, 2, 0, 5, 2);
	printa(@l82);
	@l83 = llquantize(v23, 2, 0, 5, 2);
	printa(@l83);
}

BEGIN
{
	@l84 = llquantize(v24, 2, 0, 5, 2);
	printa(@l84);
	@l85 = llquantize(v25, 2, 0, 5, 2);
	printa(@l85);
	@l86 = llquantize(v26, 2, 0, 5, 2);
	printa(@l86);
	@l87 = llquantize(v27, 2, 0, 5, 2);
	printa(@l87);
	@l88 = llquantize(v28, 2, 0, 5, 2);
	printa(@l88);
	@l89 = llquantize(v29, 2, 0, 5, 2);
	printa(@l89);
}
BEGIN
{
	@l90 = llquantize(v0, 4, 4, 6, 32);
	printa(@l90);
	@l91 = llquantize(v1, 4, 4, 6, 32);
	printa(@l91);
	@l92 = llquantize(v2, 4, 4, 6, 32);
	printa(@l92);
	@l93 = llquantize(v3, 4, 4, 6, 32);
	printa(@l93);
	@l94 = llquantize(v4, 4, 4, 6, 32);
	printa(@l94);
	@l95 = llquantize(v5, 4, 4, 6, 32);
	printa(@l95);
}

BEGIN
{
	@l96 = llquantize(v6, 4, 4, 6, 32);
	printa(@l96);
	@l97 = llquantize(v7, 4, 4, 6, 32);
	printa(@l97);
	@l98 = llquantize(v8, 4, 4, 6, 32);
	printa(@l98);
	@l99 = llquantize(v9, 4, 4, 6, 32);
	printa(@l99);
	@l100 = llquantize(v10, 4, 4, 6, 32);
	printa(@l100);
	@l101 = llquantize(v11, 4, 4, 6, 32);
	printa(@l101);
	@l102 = llquantize(v12, 4, 4, 6, 32);
	printa(@l102);
	@l103 = llquantize(v13, 4, 4, 6, 32);
	printa(@l103);
	@l104 = llquantize(v14, 4, 4, 6, 32);
	printa(@l104);
	@l105 = llquantize(v15, 4, 4, 6, 32);
	printa(@l105);
	@l106 = llquantize(v16, 4, 4, 6, 32);
	printa(@l106);
	@l107 = llquantize(v17, 4, 4, 6, 32);
	printa(@l107);
}

BEGIN
{
	@l108 = llquantize(v18, 4, 4, 6, 32);
	printa(@l108);
	@l109 = llquantize(v19, 4, 4, 6, 32);
	printa(@l109);
	@l110 = llquantize(v20, 4, 4, 6, 32);
	printa(@l110);
	@l111 = llquantize(v21, 4, 4, 6, 32);
	printa(@l111);
	@l112 = llquantize(v22, 4, 4, 6, 32);
	printa(@l112);
	@l113 = llquantize(v23, 4, 4, 6, 32);
	printa(@l113);
	@l114 = llquantize(v24, 4, 4, 6, 32);
	printa(@l114);
	@l115 = llquantize(v25, 4, 4, 6, 32);
	printa(@l115);
	@l116 = llquantize(v26, 4, 4, 6, 32);
	printa(@l116);
	@l117 = llquantize(v27, 4, 4, 6, 32);
	printa(@l117);
	@l118 = llquantize(v28, 4, 4, 6, 32);
	printa(@l118);
	@l119 = llquantize(v29, 4, 4, 6, 32);
	printa(@l119);
}

BEGIN
{
	@l120 = llquantize(v0, 10, 1, 4, 5);
	printa(@l120);
	@l121 = llquantize(v1, 10, 1, 4, 5);
	printa(@l121);
	@l122 = llquantize(v2, 10, 1, 4, 5);
	printa(@l122);
	@l123 = llquantize(v3, 10, 1, 4, 5);
	printa(@l123);
	@l124 = llquantize(v4, 10, 1, 4, 5);
	printa(@l124);
	@l125 = llquantize(v5, 10, 1, 4, 5);
	printa(@l125);
	@l126 = llquantize(v6, 10, 1, 4, 5);
	printa(@l126);
	@l127 = llquantize(v7, 10, 1, 4, 5);
	printa(@l127);
	@l128 = llquantize(v8, 10, 1, 4, 5);
	printa(@l128);
	@l129 = llquantize(v9, 10, 1, 4, 5);
	printa(@l129);
	@l130 = llquantize(v10, 10, 1, 4, 5);
	printa(@l130);
	@l131 = llquantize(v11, 10, 1, 4, 5);
	printa(@l131);
}

BEGIN
{
	@l132 = llquantize(v12, 10, 1, 4, 5);
	printa(@l132);
	@l133 = llquantize(v13, 10, 1, 4, 5);
	printa(@l133);
	@l134 = llquantize(v14, 10, 1, 4, 5);
	printa(@l134);
	@l135 = llquantize(v15, 10, 1, 4, 5);
	printa(@l135);
	@l136 = llquantize(v16, 10, 1, 4, 5);
	printa(@l136);
	@l137 = llquantize(v17, 10, 1, 4, 5);
	printa(@l137);
	@l138 = llquantize(v18, 10, 1, 4, 5);
	printa(@l138);
	@l139 = llquantize(v19, 10, 1, 4, 5);
	printa(@l139);
	@l140 = llquantize(v20, 10, 1, 4, 5);
	printa(@l140);
	@l141 = llquantize(v21, 10, 1, 4, 5);
	printa(@l141);
	@l142 = llquantize(v22, 10, 1, 4, 5);
	printa(@l142);
	@l143 = llquantize(v23, 10, 1, 4, 5);
	printa(@l143);
}

BEGIN
{
	@l144 = llquantize(v24, 10, 1, 4, 5);
	printa(@l144);
	@l145 = llquantize(v25, 10, 1, 4, 5);
	printa(@l145);
	@l146 = llquantize(v26, 10, 1, 4, 5);
	printa(@l146);
	@l147 = llquantize(v27, 10, 1, 4, 5);
	printa(@l147);
	@l148 = llquantize(v28, 10, 1, 4, 5);
	printa(@l148);
	@l149 = llquantize(v29, 10, 1, 4, 5);
	printa(@l149);
}
BEGIN
{
	@l150 = llquantize(v0, 3, 0, 10, 9);
	printa(@l150);
	@l151 = llquantize(v1, 3, 0, 10, 9);
	printa(@l151);
	@l152 = llquantize(v2, 3, 0, 10, 9);
	printa(@l152);
	@l153 = llquantize(v3, 3, 0, 10, 9);
	printa(@l153);
	@l154 = llquantize(v4, 3, 0, 10, 9);
	printa(@l154);
	@l155 = llquantize(v5, 3, 0, 10, 9);
	printa(@l155);
}

BEGIN
{
	@l156 = llquantize(v6, 3, 0, 10, 9);
	printa(@l156);
	@l157 = llquantize(v7, 3, 0, 10, 9);
	printa(@l157);
	@l158 = llquantize(v8, 3, 0, 10, 9);
	printa(@l158);
	@l159 = llquantize(v9, 3, 0, 10, 9);
	printa(@l159);
	@l160 = llquantize(v10, 3, 0, 10, 9);
	printa(@l160);
	@l161 = llquantize(v11, 3, 0, 10, 9);
	printa(@l161);
	@l162 = llquantize(v12, 3, 0, 10, 9);
	printa(@l162);
	@l163 = llquantize(v13, 3, 0, 10, 9);
	printa(@l163);
	@l164 = llquantize(v14, 3, 0, 10, 9);
	printa(@l164);
	@l165 = llquantize(v15, 3, 0, 10, 9);
	printa(@l165);
	@l166 = llquantize(v16, 3, 0, 10, 9);
	printa(@l166);
	@l167 = llquantize(v17, 3, 0, 10, 9);
	printa(@l167);
}

BEGIN
{
	@l168 = llquantize(v18, 3, 0, 10, 9);
	printa(@l168);
	@l169 = llquantize(v19, 3, 0, 10, 9);
	printa(@l169);
	@l170 = llquantize(v20, 3, 0, 10, 9);
	printa(@l170);
	@l171 = llquantize(v21, 3, 0, 10, 9);
	printa(@l171);
	@l172 = llquantize(v22, 3, 0, 10, 9);
	printa(@l172);
	@l173 = llquantize(v23, 3, 0, 10, 9);
	printa(@l173);
	@l174 = llquantize(v24, 3, 0, 10, 9);
	printa(@l174);
	@l175 = llquantize(v25, 3, 0, 10, 9);
	printa(@l175);
	@l176 = llquantize(v26, 3, 0, 10, 9);
	printa(@l176);
	@l177 = llquantize(v27, 3, 0, 10, 9);
	printa(@l177);
	@l178 = llquantize(v28, 3, 0, 10, 9);
	printa(@l178);
	@l179 = llquantize(v29, 3, 0, 10, 9);
	printa(@l179);
}

BEGIN
{
	@l180 = llquantize(v0, 2, 0, 61, 2);
	printa(@l180);
	@l181 = llquantize(v1, 2, 0, 61, 2);
	printa(@l181);
	@l182 = llquantize(v2, 2, 0, 61, 2);
	printa(@l182);
	@l183 = llquantize(v3, 2, 0, 61, 2);
	printa(@l183);
	@l184 = llquantize(v4, 2, 0, 61, 2);
	printa(@l184);
	@l185 = llquantize(v5, 2, 0, 61, 2);
	printa(@l185);
	@l186 = llquantize(v6, 2, 0, 61, 2);
	printa(@l186);
	@l187 = llquantize(v7, 2, 0, 61, 2);
	printa(@l187);
	@l188 = llquantize(v8, 2, 0, 61, 2);
	printa(@l188);
	@l189 = llquantize(v9, 2, 0, 61, 2);
	printa(@l189);
	@l190 = llquantize(v10, 2, 0, 61, 2);
	printa(@l190);
	@l191 = llquantize(v11, 2, 0, 61, 2);
	printa(@l191);
}

BEGIN
{
	@l192 = llquantize(v12, 2, 0, 61, 2);
	printa(@l192);
	@l193 = llquantize(v13, 2, 0, 61, 2);
	printa(@l193);
	@l194 = llquantize(v14, 2, 0, 61, 2);
	printa(@l194);
	@l195 = llquantize(v15, 2, 0, 61, 2);
	printa(@l195);
	@l196 = llquantize(v16, 2, 0, 61, 2);
	printa(@l196);
	@l197 = llquantize(v17, 2, 0, 61, 2);
	printa(@l197);
	@l198 = llquantize(v18, 2, 0, 61, 2);
	printa(@l198);
	@l199 = llquantize(v19, 2, 0, 61, 2);
	printa(@l199);
	@l200 = llquantize(v20, 2, 0, 61, 2);
	printa(@l200);
	@l201 = llquantize(v21, 2, 0, 61, 2);
	printa(@l201);
	@l202 = llquantize(v22, 2, 0, 61, 2);
	printa(@l202);
	@l203 = llquantize(v23, 2, 0, 61, 2);
	printa(@l203);
}

BEGIN
{
	@l204 = llquantize(v24, 2, 0, 61, 2);
	printa(@l204);
	@l205 = llquantize(v25, 2, 0, 61, 2);
	printa(@l205);
	@l206 = llquantize(v26, 2, 0, 61, 2);
	printa(@l206);
	@l207 = llquantize(v27, 2, 0, 61, 2);
	printa(@l207);
	@l208 = llquantize(v28, 2, 0, 61, 2);
	printa(@l208);
	@l209 = llquantize(v29, 2, 0, 61, 2);
	printa(@l209);
}
BEGIN
{
	@l210 = llquantize(v0, 10, 0, 17, 100);
	printa(@l210);
	@l211 = llquantize(v1, 10, 0, 17, 100);
	printa(@l211);
	@l212 = llquantize(v2, 10, 0, 17, 100);
	printa(@l212);
	@l213 = llquantize(v3, 10, 0, 17, 100);
	printa(@l213);
	@l214 = llquantize(v4, 10, 0, 17, 100);
	printa(@l214);
	@l215 = llquantize(v5, 10, 0, 17, 100);
	printa(@l215);
}

BEGIN
{
	@l216 = llquantize(v6, 10, 0, 17, 100);
	printa(@l216);
	@l217 = llquantize(v7, 10, 0, 17, 100);
	printa(@l217);
	@l218 = llquantize(v8, 10, 0, 17, 100);
	printa(@l218);
	@l219 = llquantize(v9, 10, 0, 17, 100);
	printa(@l219);
	@l220 = llquantize(v10, 10, 0, 17, 100);
	printa(@l220);
	@l221 = llquantize(v11, 10, 0, 17, 100);
	printa(@l221);
	@l222 = llquantize(v12, 10, 0, 17, 100);
	printa(@l222);
	@l223 = llquantize(v13, 10, 0, 17, 100);
	printa(@l223);
	@l224 = llquantize(v14, 10, 0, 17, 100);
	printa(@l224);
	@l225 = llquantize(v15, 10, 0, 17, 100);
	printa(@l225);
	@l226 = llquantize(v16, 10, 0, 17, 100);
	printa(@l226);
	@l227 = llquantize(v17, 10, 0, 17, 100);
	printa(@l227);
}

BEGIN
{
	@l228 = llquantize(v18, 10, 0, 17, 100);
	printa(@l228);
	@l229 = llquantize(v19, 10, 0, 17, 100);
	printa(@l229);
	@l230 = llquantize(v20, 10, 0, 17, 100);
	printa(@l230);
	@l231 = llquantize(v21, 10, 0, 17, 100);
	printa(@l231);
	@l232 = llquantize(v22, 10, 0, 17, 100);
	printa(@l232);
	@l233 = llquantize(v23, 10, 0, 17, 100);
	printa(@l233);
	@l234 = llquantize(v24, 10, 0, 17, 100);
	printa(@l234);
	@l235 = llquantize(v25, 10, 0, 17, 100);
	printa(@l235);
	@l236 = llquantize(v26, 10, 0, 17, 100);
	printa(@l236);
	@l237 = llquantize(v27, 10, 0, 17, 100);
	printa(@l237);
	@l238 = llquantize(v28, 10, 0, 17, 100);
	printa(@l238);
	@l239 = llquantize(v29, 10, 0, 17, 100);
	printa(@l239);
}

BEGIN
{
	@l240 = llquantize(v0, 7, 2, 5, 49);
	printa(@l240);
	@l241 = llquantize(v1, 7, 2, 5, 49);
	printa(@l241);
	@l242 = llquantize(v2, 7, 2, 5, 49);
	printa(@l242);
	@l243 = llquantize(v3, 7, 2, 5, 49);
	printa(@l243);
	@l244 = llquantize(v4, 7, 2, 5, 49);
	printa(@l244);
	@l245 = llquantize(v5, 7, 2, 5, 49);
	printa(@l245);
	@l246 = llquantize(v6, 7, 2, 5, 49);
	printa(@l246);
	@l247 = llquantize(v7, 7, 2, 5, 49);
	printa(@l247);
	@l248 = llquantize(v8, 7, 2, 5, 49);
	printa(@l248);
	@l249 = llquantize(v9, 7, 2, 5, 49);
	printa(@l249);
	@l250 = llquantize(v10, 7, 2, 5, 49);
	printa(@l250);
	@l251 = llquantize(v11, 7, 2, 5, 49);
	printa(@l251);
}

BEGIN
{
	@l252 = llquantize(v12, 7, 2, 5, 49);
	printa(@l252);
	@l253 = llquantize(v13, 7, 2, 5, 49);
	printa(@l253);
	@l254 = llquantize(v14, 7, 2, 5, 49);
	printa(@l254);
	@l255 = llquantize(v15, 7, 2, 5, 49);
	printa(@l255);
	@l256 = llquantize(v16, 7, 2, 5, 49);
	printa(@l256);
	@l257 = llquantize(v17, 7, 2, 5, 49);
	printa(@l257);
	@l258 = llquantize(v18, 7, 2, 5, 49);
	printa(@l258);
	@l259 = llquantize(v19, 7, 2, 5, 49);
	printa(@l259);
	@l260 = llquantize(v20, 7, 2, 5, 49);
	printa(@l260);
	@l261 = llquantize(v21, 7, 2, 5, 49);
	printa(@l261);
	@l262 = llquantize(v22, 7, 2, 5, 49);
	printa(@l262);
	@l263 = llquantize(v23, 7, 2, 5, 49);
	printa(@l263);
}

BEGIN
{
	@l264 = llquantize(v24, 7, 2, 5, 49);
	printa(@l264);
	@l265 = llquantize(v25, 7, 2, 5, 49);
	printa(@l265);
	@l266 = llquantize(v26, 7, 2, 5, 49);
	printa(@l266);
	@l267 = llquantize(v27, 7, 2, 5, 49);
	printa(@l267);
	@l268 = llquantize(v28, 7, 2, 5, 49);
	printa(@l268);
	@l269 = llquantize(v29, 7, 2, 5, 49);
	printa(@l269);
}
BEGIN
{
	@l270 = llquantize(v0, 16, 0, 14, 256);
	printa(@l270);
	@l271 = llquantize(v1, 16, 0, 14, 256);
	printa(@l271);
	@l272 = llquantize(v2, 16, 0, 14, 256);
	printa(@l272);
	@l273 = llquantize(v3, 16, 0, 14, 256);
	printa(@l273);
	@l274 = llquantize(v4, 16, 0, 14, 256);
	printa(@l274);
	@l275 = llquantize(v5, 16, 0, 14, 256);
	printa(@l275);
}

BEGIN
{
	@l276 = llquantize(v6, 16, 0, 14, 256);
	printa(@l276);
	@l277 = llquantize(v7, 16, 0, 14, 256);
	printa(@l277);
	@l278 = llquantize(v8, 16, 0, 14, 256);
	printa(@l278);
	@l279 = llquantize(v9, 16, 0, 14, 256);
	printa(@l279);
	@l280 = llquantize(v10, 16, 0, 14, 256);
	printa(@l280);
	@l281 = llquantize(v11, 16, 0, 14, 256);
	printa(@l281);
	@l282 = llquantize(v12, 16, 0, 14, 256);
	printa(@l282);
	@l283 = llquantize(v13, 16, 0, 14, 256);
	printa(@l283);
	@l284 = llquantize(v14, 16, 0, 14, 256);
	printa(@l284);
	@l285 = llquantize(v15, 16, 0, 14, 256);
	printa(@l285);
	@l286 = llquantize(v16, 16, 0, 14, 256);
	printa(@l286);
	@l287 = llquantize(v17, 16, 0, 14, 256);
	printa(@l287);
}

BEGIN
{
	@l288 = llquantize(v18, 16, 0, 14, 256);
	printa(@l288);
	@l289 = llquantize(v19, 16, 0, 14, 256);
	printa(@l289);
	@l290 = llquantize(v20, 16, 0, 14, 256);
	printa(@l290);
	@l291 = llquantize(v21, 16, 0, 14, 256);
	printa(@l291);
	@l292 = llquantize(v22, 16, 0, 14, 256);
	printa(@l292);
	@l293 = llquantize(v23, 16, 0, 14, 256);
	printa(@l293);
	@l294 = llquantize(v24, 16, 0, 14, 256);
	printa(@l294);
	@l295 = llquantize(v25, 16, 0, 14, 256);
	printa(@l295);
	@l296 = llquantize(v26, 16, 0, 14, 256);
	printa(@l296);
	@l297 = llquantize(v27, 16, 0, 14, 256);
	printa(@l297);
	@l298 = llquantize(v28, 16, 0, 14, 256);
	printa(@l298);
	@l299 = llquantize(v29, 16, 0, 14, 256);
	printa(@l299);
}

BEGIN
{
	@q0 = quantize(v0);
	printa(@q0);
	@q1 = quantize(v1);
	printa(@q1);
	@q2 = quantize(v2);
	printa(@q2);
	@q3 = quantize(v3);
	printa(@q3);
	@q4 = quantize(v4);
	printa(@q4);
	@q5 = quantize(v5);
	printa(@q5);
	@q6 = quantize(v6);
	printa(@q6);
	@q7 = quantize(v7);
	printa(@q7);
	@q8 = quantize(v8);
	printa(@q8);
	@q9 = quantize(v9);
	printa(@q9);
	@q10 = quantize(v10);
	printa(@q10);
	@q11 = quantize(v11);
	printa(@q11);
}

BEGIN
{
	@q12 = quantize(v12);
	printa(@q12);
	@q13 = quantize(v13);
	printa(@q13);
	@q14 = quantize(v14);
	printa(@q14);
	@q15 = quantize(v15);
	printa(@q15);
	@q16 = quantize(v16);
	printa(@q16);
	@q17 = quantize(v17);
	printa(@q17);
	@q18 = quantize(v18);
	printa(@q18);
	@q19 = quantize(v19);
	printa(@q19);
	@q20 = quantize(v20);
	printa(@q20);
	@q21 = quantize(v21);
	printa(@q21);
	@q22 = quantize(v22);
	printa(@q22);
	@q23 = quantize(v23);
	printa(@q23);
}

BEGIN
{
	@q24 = quantize(v24);
	printa(@q24);
	@q25 = quantize(v25);
	printa(@q25);
	@q26 = quantize(v26);
	printa(@q26);
	@q27 = quantize(v27);
	printa(@q27);
	@q28 = quantize(v28);
	printa(@q28);
	@q29 = quantize(v29);
	printa(@q29);
	@s0 = stddev(v0);
	@s0 = stddev(v1);
	@s0 = stddev(v0);
	printa("%@u\n", @s0);
	@s2 = stddev(v2);
	@s2 = stddev(v3);
	@s2 = stddev(v0);
	printa("%@u\n", @s2);
	@s4 = stddev(v4);
	@s4 = stddev(v5);
	@s4 = stddev(v0);
	printa("%@u\n", @s4);
	@s6 = stddev(v6);
	@s6 = stddev(v7);
	@s6 = stddev(v0);
	printa("%@u\n", @s6);
	@s8 = stddev(v8);
	@s8 = stddev(v9);
	@s8 = stddev(v0);
	printa("%@u\n", @s8);
	@s10 = stddev(v10);
	@s10 = stddev(v11);
	@s10 = stddev(v0);
	printa("%@u\n", @s10);
}

BEGIN
{
	@s12 = stddev(v12);
	@s12 = stddev(v13);
	@s12 = stddev(v0);
	printa("%@u\n", @s12);
	@s14 = stddev(v14);
	@s14 = stddev(v15);
	@s14 = stddev(v0);
	printa("%@u\n", @s14);
	@s16 = stddev(v16);
	@s16 = stddev(v17);
	@s16 = stddev(v0);
	printa("%@u\n", @s16);
	@s18 = stddev(v18);
	@s18 = stddev(v19);
	@s18 = stddev(v0);
	printa("%@u\n", @s18);
	@s20 = stddev(v20);
	@s20 = stddev(v21);
	@s20 = stddev(v0);
	printa("%@u\n", @s20);
	@s22 = stddev(v22);
	@s22 = stddev(v23);
	@s22 = stddev(v0);
	printa("%@u\n", @s22);
	@s24 = stddev(v24);
	@s24 = stddev(v25);
	@s24 = stddev(v0);
	printa("%@u\n", @s24);
	@s26 = stddev(v26);
	@s26 = stddev(v27);
	@s26 = stddev(v0);
	printa("%@u\n", @s26);
	@s28 = stddev(v28);
	@s28 = stddev(v29);
	@s28 = stddev(v0);
	printa("%@u\n", @s28);
	exit(0);
}
